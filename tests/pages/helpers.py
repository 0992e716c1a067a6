"""What the hosted pages' tests share: the forms they fill, the pages they open, their English left untranslated."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from checkout import clock
from tests import builders
from tests.pages.conftest import form_action
from tests.pages.country_payments import EVERY_METHOD
from tests.translations.catalogues import LOCALES, TEXTS


def page_data(response) -> dict:
    html = response.get_data(as_text=True)
    return json.loads(re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html).group(1))


def card_form(**overrides):
    return {
        "card_no": "4111 1111 1111 1111",
        "exp": f"12/{(clock.now().year + 2) % 100:02d}",
        "cvv": "123",
        "holder": "Ana Souza",
        **overrides,
    }


def choose(customer, page, method: str):
    html = page.get_data(as_text=True)
    link = re.search(rf'data-method="{method}" href="([^"]+)"', html).group(1).replace("&amp;", "&")
    return customer.get(link)


def pix_form(**overrides):
    return {
        "method": "PIX",
        "name": "Ana Souza",
        "document_id": builders.CPF,
        "pix_key_type": "EMAIL",
        "pix_key": "ana@example.com",
        **overrides,
    }


# Names that are data, not page text: the sandbox collector's account holder (config COLLECTOR_NAME).
# Names that are the same in every language: the sandbox collector, and Brazil's Open Finance (the
# programme's own name in Portuguese too), which "Open %(wallet)s" would otherwise match.
# The collector's local entities (config COLLECTOR_NAMES, the bank transfers' beneficiary) are names too.
NAMES = (
    "Checkout Sandbox Pagamentos",
    "CHECKOUT SANDBOX MEXICO SA DE CV",
    "Checkout Sandbox Pagos S.A.",
    "Open Finance",
)


# Attributes a customer reads or hears, and the copy button's states its script shows.
SPOKEN = {"aria-label", "placeholder", "title", "alt", "data-done", "data-keys", "data-apple", "data-touch"}


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "textarea"):  # a copy field's textarea holds data, not page text
            self.skip += 1
        self.parts.extend(value for name, value in attrs if name in SPOKEN and value)
        if tag == "input" and dict(attrs).get("type") in ("submit", "button"):
            self.parts.append(dict(attrs).get("value") or "")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "textarea"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return "\n".join(" ".join(part.split()) for part in parser.parts if part.strip())


def _pattern(english: str) -> re.Pattern:
    """The English text with each placeholder matching anything: its words, never a longer word's part."""
    literals = [re.escape(re.sub(r"\s+", " ", piece)) for piece in re.split(r"%\(\w+\)[sd]", english)]
    body = r".+?".join(literals)
    return re.compile(rf"(?<![\w]){body}(?![\w])" if body else r"(?!)")


def english_left(text: str, locale: str) -> list[str]:
    """The catalogue's English texts found in `text`, where the locale's translation is another text."""
    index = LOCALES.index(locale)
    return [english for english, tr in TEXTS.items() if tr[index] != english and _pattern(english).search(text)]


def create(api, name: str, out_trade_no: str = "order-42", **more) -> dict:
    return api.post("/trade/pay", EVERY_METHOD[name].body(out_trade_no, **more), expect=200)


def page_url(trade: dict, language: str | None = None) -> str:
    url = trade.get("pay_url") or trade["wallet_url"]
    return f"{url}&language={language}" if language else url


def status_of(api, trade: dict) -> str:
    return api.post("/trade/query", {"trade_no": trade["trade_no"]}, expect=200)["trade_status"]


PATH = "/pages/spei/transfer"


ELSEWHERE = "This page only transfers to the CLABE Loja Exemplo gave you."


def in_english(url: str) -> str:
    return f"{url}&language=en"


def spaced(number: str) -> str:
    """The CLABE as a bank's app groups it: bank, plaza, account and check digit."""
    return f"{number[:3]} {number[3:6]} {number[6:17]} {number[17]}"


def transfer_key(page) -> str:
    """The form's hidden tracking key, as the browser posts it back."""
    return re.search(r'name="transfer" value="([^"]+)"', page.get_data(as_text=True)).group(1)


def send_transfer(customer, page, clabe_text: str, amount: str, **headers):
    fields = {"clabe": clabe_text, "amount": amount, "transfer": transfer_key(page)}
    return customer.post(form_action(page, PATH), fields, page=page, **headers)
