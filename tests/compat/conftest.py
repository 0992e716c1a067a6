"""Fixtures of the compatibility suite: the merchant's receiver of notifications, the provider's examples."""

import base64
import json

import pytest

from checkout.jsonbody import JsonNumber
from checkout.signing import payout_signature
from tests.builders import TIMESTAMP
from tests.notifications.conftest import receiver  # noqa: F401  (a fixture, used by name)
from tests.pages.conftest import customer  # noqa: F401  (a fixture, used by name)


@pytest.fixture
def send_example(client, merchant):
    """POST a request example copied from the provider's page, as text: only the placeholders for the
    merchant's app id and the example's masked ids are replaced, so every other byte is the page's."""

    def send(path: str, example: str, **replace: str):
        text = example.replace("{app_id}", merchant["app_id"]).replace("{timestamp}", TIMESTAMP)
        for placeholder, value in replace.items():
            text = text.replace("{" + placeholder + "}", value)
        raw = f"{merchant['app_id']}:{merchant['security_key']}".encode()
        response = client.post(
            path,
            data=text.encode("utf-8"),
            headers={"Authorization": "Basic " + base64.b64encode(raw).decode(), "Content-Type": "application/json"},
        )
        return response.status_code, response.get_json()

    return send


@pytest.fixture
def send_payout_example(client, merchant):
    """POST a payout request example copied from the provider's page, as text, signed as the merchant signs
    it (headers AppId and Authorization over the body sent). The page's required-field marks (`*`) and
    `//` comments, which are not JSON, are left out; `{placeholder}` values are replaced."""

    def send(path: str, example: str, **replace: str):
        text = example
        for placeholder, value in replace.items():
            text = text.replace("{" + placeholder + "}", value)
        body = json.loads(text, parse_float=JsonNumber)
        headers = {
            "AppId": merchant["app_id"],
            "Authorization": payout_signature(body, merchant["app_key"]),
            "Content-Type": "application/json",
        }
        response = client.post(path, data=text.encode("utf-8"), headers=headers)
        return response.status_code, response.get_json()

    return send
