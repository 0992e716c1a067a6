"""Payment pages of every method: bar codes, vouchers, paste-to-pay, result states, frames, languages."""

import io
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import zxingcpp
from joserfc import jws
from PIL import Image

from checkout import clock
from checkout.brazil import boleto
from checkout.mexico import clabe
from checkout.signing import jws_key
from tests import builders, formats
from tests.pages.conftest import form_action, input_value

ROOT = Path(__file__).resolve().parents[2]
MX = {"order_currency": "MXN", "customer": {"identify": {"type": "RFC", "number": "ABCD800101XYZ"}}}
CL = {"order_currency": "CLP", "order_amount": "1000", "customer": {"identify": {"type": "RUT", "number": "123456785"}}}
CO = {"order_currency": "COP", "order_amount": "10000", "customer": {"identify": {"type": "CC", "number": "12345678"}}}


def page_data(response) -> dict:
    html = response.get_data(as_text=True)
    return json.loads(re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html).group(1))


def trade_of(api, method: str, out_trade_no: str = "order-1", **extra) -> dict:
    return api.post("/trade/pay", builders.direct(method, out_trade_no=out_trade_no, **extra), expect=200)


def url_of(trade: dict) -> str:
    return trade.get("pay_url") or trade["wallet_url"]


def decoded(response) -> list[tuple[str, str]]:
    image = Image.open(io.BytesIO(response.data))
    return [(r.text, r.format.name) for r in zxingcpp.read_barcodes(image)]


def barcode_url(customer, trade: dict) -> str:
    html = customer.get(trade["pay_url"]).get_data(as_text=True)
    return re.search(r'<img src="([^"]*/pages/pay/barcode\.png[^"]*)"', html).group(1).replace("&amp;", "&")


def paste(customer, trade: dict, code: str):
    page = customer.get(url_of(trade) + "&language=en")
    return customer.post(form_action(page, "/pages/pay/sandbox/paste"), {"code": code}, page=page)


def status_of(api, trade: dict) -> str:
    return api.post("/trade/query", {"trade_no": trade["trade_no"]}, expect=200)["trade_status"]


def test_boleto_bar_code_image_carries_the_44_digits(customer, api):
    trade = trade_of(api, "Boleto")
    image = customer.get(barcode_url(customer, trade))
    assert image.status_code == 200 and image.mimetype == "image/png"
    assert decoded(image) == [(trade["barcode"], "ITF")]
    assert boleto.barcode_from_linha(trade["bank_code"]) == trade["barcode"]


def test_lottery_bar_code_is_the_one_its_line_stands_for(customer, api):
    trade = trade_of(api, "Lottery")
    assert decoded(customer.get(barcode_url(customer, trade))) == [(boleto.barcode_from_linha(trade["barcode"]), "ITF")]
    html = customer.get(trade["pay_url"]).get_data(as_text=True)
    assert "Lotérica" in html and "Lottery" not in html  # the name people read, in pt-BR


def test_oxxo_bar_code_is_code_128(customer, api):
    trade = trade_of(api, "OXXO", **MX)
    assert decoded(customer.get(barcode_url(customer, trade))) == [(trade["barcode"], "Code128")]
    assert input_value(customer.get(trade["pay_url"]), "barcode") == trade["barcode"]


@pytest.mark.parametrize(("method", "extra"), [("Boleto", {}), ("Lottery", {}), ("OXXO", MX)])
def test_pdf_voucher(customer, api, method, extra):
    trade = trade_of(api, method, **extra)
    url = barcode_url(customer, trade).replace("/pages/pay/barcode.png", "/pages/pay/voucher.pdf")
    answer = customer.get(url)
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    assert answer.data.startswith(b"%PDF") and "attachment" in answer.headers["Content-Disposition"]


def test_slip_routes_are_guarded_by_the_page_token(customer, api):
    trade = trade_of(api, "Boleto")
    url = barcode_url(customer, trade)
    assert customer.get("/pages/pay/barcode.png").status_code == 400
    assert customer.get("/pages/pay/voucher.pdf?token=").status_code == 400
    # A token of another purpose (the PIX QR image's) or another page's does not open the slip.
    pix = trade_of(api, "PIX", out_trade_no="pix")
    qr_token = re.search(r"token=([^&]+)", pix["qr_code_url"]).group(1)
    assert customer.get(f"/pages/pay/barcode.png?token={qr_token}").status_code == 400
    vault = api.post("/vault/create", builders.pix_vault(clock.brazil_today()), expect=200)
    vault_token = re.search(r"token=([^&]+)", vault["checkout_url"]).group(1)
    assert customer.get(f"/pages/pay/voucher.pdf?token={vault_token}").status_code == 400
    token = re.search(r"token=([^&]+)", url).group(1)
    assert customer.get(url.replace(token, token[:-4] + "AAAA")).status_code == 400
    # A trade without a slip has no bar code to show.
    assert customer.get(pix["pay_url"].replace("/pages/pay?", "/pages/pay/barcode.png?")).status_code == 404


def test_boleto_shows_its_due_date_and_no_countdown(customer, api):
    trade = trade_of(api, "Boleto")
    html = customer.get(trade["pay_url"] + "&language=en").get_data(as_text=True)
    # Its due day's last minute, as a date and hour in Brasília's zone (the day ends at midnight there).
    assert "data-countdown" not in html
    assert re.search(r'<strong class="pay-by">Pay by \w+ \d+, 20\d\d, 11:59\W*PM \(Brasilia Time\)</strong>', html)
    assert "Print / save as PDF" in html and "@media print" in (ROOT / "static/css/pages.css").read_text()
    pix = customer.get(trade_of(api, "PIX", out_trade_no="pix")["pay_url"]).get_data(as_text=True)
    assert "data-countdown" in pix


@pytest.mark.parametrize(
    ("method", "extra", "code"),
    [
        ("PIX", {}, lambda t: t["qr_code"]),
        ("Boleto", {}, lambda t: boleto.formatted(t["bank_code"])),
        ("Boleto", {}, lambda t: t["barcode"]),
        ("Lottery", {}, lambda t: t["barcode"]),
        ("SPEI", MX, lambda t: " ".join(re.findall(r".{1,3}", t["clabe"]))),
        ("OXXO", MX, lambda t: t["barcode"]),
        ("Cash", CL, lambda t: t["reference"]),
        ("Bancolombia", CO, lambda t: t["reference"]),
        ("CoDi", MX, lambda t: t["qr_code"]),
    ],
)
def test_paste_to_pay_takes_this_trades_own_code(customer, api, method, extra, code):
    trade = trade_of(api, method, **extra)
    answer = paste(customer, trade, code(trade))
    assert answer.status_code == 303
    assert urlsplit(answer.headers["Location"]).path == "/pages/pay"
    assert status_of(api, trade) == "SUCCESS"


def test_paste_to_pay_refuses_another_trades_code_and_writes_nothing(customer, api, row_counts):
    mine = trade_of(api, "Boleto", out_trade_no="mine")
    other = trade_of(api, "Boleto", out_trade_no="other")
    bancolombia = trade_of(api, "Bancolombia", out_trade_no="bc", **CO)
    before = row_counts()
    answer = paste(customer, mine, other["bank_code"])
    assert answer.status_code == 422
    assert "This is not this payment&#39;s code" in answer.get_data(as_text=True)
    assert row_counts() == before and status_of(api, mine) == "PROCESSING"
    # The shared partner code names no trade; an empty paste is asked again.
    assert paste(customer, bancolombia, bancolombia["partner_code"]).status_code == 422
    assert paste(customer, bancolombia, "").status_code == 422
    assert row_counts() == before


def test_paste_to_pay_needs_the_page_and_the_sandbox(app, customer, api):
    trade = trade_of(api, "PIX")
    page = customer.get(trade["pay_url"])
    action = form_action(page, "/pages/pay/sandbox/paste")
    assert (
        customer.post(action, {"code": trade["qr_code"]}, page=page, origin="https://evil.example").status_code == 403
    )
    app.config["SANDBOX"] = False
    try:
        assert customer.post(action, {"code": trade["qr_code"]}, page=page).status_code == 403
    finally:
        app.config["SANDBOX"] = True
    assert status_of(api, trade) == "PROCESSING"


def test_wallet_links_keep_working_and_paid_pages_stay_on_pay(customer, api):
    trade = trade_of(api, "Wallet", channel="PicPay")
    assert urlsplit(trade["wallet_url"]).path == "/pages/wallet"
    page = customer.get(trade["wallet_url"])
    assert page.status_code == 200 and "<svg" in page.get_data(as_text=True)  # the app link's QR
    assert urlsplit(page_data(page)["poll"]).path == "/pages/pay/status"
    assert urlsplit(customer.get(page_data(page)["poll"]).get_json()["next"]).path == "/pages/pay"
    answer = customer.post(form_action(page, "/pages/pay/sandbox?"), page=page)
    assert urlsplit(answer.headers["Location"]).path == "/pages/pay"


def test_wallet_page_on_a_phone_offers_the_app(customer, api):
    trade = trade_of(api, "Wallet", channel="PicPay")
    html = customer.get(trade["wallet_url"] + "&view=h5&language=en").get_data(as_text=True)
    assert 'href="checkout-sandbox://wallet/picpay/pay?' in html and "Open PicPay" in html
    assert input_value(customer.get(trade["wallet_url"]), "wallet-link") == trade["wallet_url"]


@pytest.mark.parametrize("return_url", [None, "https://shop.example/back"])
def test_finished_pages_post_the_signed_result_to_the_frame(customer, api, merchant, return_url):
    extra = {"return_url": return_url} if return_url else {}
    trade = trade_of(api, "PIX", **extra)
    page = customer.get(trade["pay_url"])
    assert page_data(page)["message"] == {
        "type": "checkout.page",
        "page": "payment",
        "status": "PROCESSING",
        "token": None,
    }
    customer.post(form_action(page, "/pages/pay/sandbox?"), page=page)
    paid = customer.get(trade["pay_url"] + "&language=en")
    message = page_data(paid)["message"]
    assert (message["type"], message["status"]) == ("checkout.payment", "SUCCESS")
    claims = json.loads(jws.deserialize_compact(message["token"], jws_key(merchant["security_key"])).payload)
    assert (claims["sub"], claims["status"], claims["out_trade_no"]) == (trade["trade_no"], "SUCCESS", "order-1")
    html = paid.get_data(as_text=True)
    amount = formats.money("100.50", "BRL", "en")
    for text in ("Payment received. Thank you!", "Paid to", "Loja Exemplo", "Pix", amount, "has been told"):
        assert text in html, text
    assert ("Back to Loja Exemplo" in html) == bool(return_url)


def test_expired_page_says_what_happens_next(customer, api):
    trade = trade_of(api, "PIX", timeout_express="5m")
    clock.advance(301)
    page = customer.get(trade["pay_url"] + "&language=en")
    assert "Nothing was charged" in page.get_data(as_text=True)
    assert page_data(page)["message"]["status"] == "EXPIRED"


def test_spei_shows_what_a_mexican_transfer_needs(customer, api):
    trade = trade_of(api, "SPEI", **MX)
    page = customer.get(trade["pay_url"])
    assert clabe.validate(input_value(page, "clabe")) == "STP"
    assert input_value(page, "clabe") == trade["clabe"]
    assert input_value(page, "spei-bank") == "STP"
    assert input_value(page, "spei-beneficiary") == "CHECKOUT SANDBOX MEXICO SA DE CV"
    assert input_value(page, "spei-amount") == "100.50"
    assert "<dt>Monto exacto (MXN)</dt>" in page.get_data(as_text=True)
    assert input_value(page, "reference") == trade["reference"]
    assert "Transfiere exactamente" in page.get_data(as_text=True)


def test_deposit_express_fields_each_copy(customer, api):
    trade = trade_of(api, "DepositExpress", bank="caixa")
    page = customer.get(trade["pay_url"])
    values = {name: input_value(page, f"dep-{name}") for name in ("bank", "agency", "account", "holder", "cnpj")}
    assert values == {
        "bank": "Caixa Econômica Federal",
        "agency": "0630",
        "account": "00034011-2",
        "holder": "Checkout Sandbox Pagamentos",
        "cnpj": "11.222.333/0001-81",
    }
    assert "Depósito bancário" in page.get_data(as_text=True)


def test_chilean_page_is_in_spanish_with_chilean_amounts(customer, api):
    trade = trade_of(api, "Cash", **CL)
    html = customer.get(trade["pay_url"], **{"Accept-Language": "en-US"}).get_data(as_text=True)
    assert 'lang="es-MX"' in html and "Pago en efectivo" in html and "Referencia" in html
    # Chile's own CLDR locale writes it, not English's, though the page's words are Mexican Spanish
    assert f'<p class="amount">{formats.money("1000", "CLP", "es_CL")}</p>' in html


def test_pix_on_a_phone_leads_with_the_copy_button(customer, api):
    trade = trade_of(api, "PIX")
    html = customer.get(trade["pay_url"] + "&view=h5").get_data(as_text=True)
    assert html.index("Copiar código Pix") < html.index('<ol class="steps">') < html.index("<details")
    assert html.count('data-copy="pix-code"') == 1  # one copy action for the one code
    assert html.index("<details") < html.index('class="qr"')
    desktop = customer.get(trade["pay_url"] + "&view=web").get_data(as_text=True)
    assert "<details" not in desktop and desktop.index('class="qr"') < desktop.index('id="pix-code"')
    assert "PIX" not in re.sub(r"<[^>]+>", "", html)  # the brand is spelled Pix


def test_pix_automatico_on_a_phone_puts_the_action_above_the_terms(customer, api):
    vault = api.post("/vault/create", builders.pix_vault(clock.brazil_today()), expect=200)
    html = customer.get(vault["checkout_url"] + "&view=h5").get_data(as_text=True)
    assert html.index("Copiar código Pix") < html.index("Mensal")
    assert html.count('data-copy="pix-code"') == 1
    desktop = customer.get(vault["checkout_url"] + "&view=web").get_data(as_text=True)
    assert desktop.index("Mensal") < desktop.index('id="pix-code"')


@pytest.mark.parametrize(
    ("method", "extra"),
    [
        ("PIX", {}),
        ("Boleto", {}),
        ("Lottery", {}),
        ("DepositExpress", {"bank": "itau"}),
        ("SPEI", MX),
        ("CoDi", MX),
        ("OXXO", MX),
        ("Cash", CL),
        ("Wallet", {"channel": "PicPay"}),
    ],
)
@pytest.mark.parametrize("view", ["web", "h5"])
def test_every_method_page_weighs_under_50_kb(customer, api, method, extra, view):
    assets = sum((ROOT / "static" / part).stat().st_size for part in ("css/pages.css", "js/pages.js"))
    page = customer.get(url_of(trade_of(api, method, **extra)) + f"&view={view}")
    assert page.status_code == 200
    assert len(page.data) + assets < 50 * 1024
