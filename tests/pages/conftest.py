"""A customer's customer, as far as the Flask test client can play one: same-origin POSTs with the page's CSRF."""

import re
from html import unescape
from urllib.parse import urlsplit

import pytest

ORIGIN = "http://checkout.test"


class Customer:
    def __init__(self, client):
        self.client = client

    @staticmethod
    def path(url: str) -> str:
        parts = urlsplit(url)
        return f"{parts.path}?{parts.query}" if parts.query else parts.path

    def get(self, url: str, **headers):
        return self.client.get(self.path(url), headers=headers)

    def post(self, url: str, data: dict | None = None, *, page=None, origin: str = ORIGIN, **headers):
        """POST as the page would: its CSRF value (from the page's HTML) and our own Origin."""
        form = dict(data or {})
        if page is not None:
            form.setdefault("csrf", csrf_of(page))
        if origin:
            headers["Origin"] = origin
        return self.client.post(self.path(url), data=form, headers=headers)


def csrf_of(response) -> str:
    return re.search(r'name="csrf" value="([0-9a-f]+)"', response.get_data(as_text=True)).group(1)


def form_action(response, fragment: str) -> str:
    html = response.get_data(as_text=True)
    action = re.search(rf'action="([^"]*{re.escape(fragment)}[^"]*)"', html).group(1)
    return action.replace("&amp;", "&")


@pytest.fixture
def customer(client):
    return Customer(client)


def input_value(response, element_id: str) -> str:
    """The value of a field: an input's value attribute, or a (copy macro's) textarea's text."""
    html = response.get_data(as_text=True)
    area = re.search(rf'<textarea[^>]*id="{element_id}"[^>]*>(.*?)</textarea>', html, re.S)
    if area:
        return unescape(area.group(1))
    tag = re.search(rf'<input[^>]*id="{element_id}"[^>]*>', html).group(0)
    return unescape(re.search(r'value="([^"]*)"', tag).group(1))
