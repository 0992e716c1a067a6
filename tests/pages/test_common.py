"""Rules every page follows: tokens, security headers, Origin and CSRF, layouts, logos, languages, weight."""

import io
import re
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import update

from checkout import clock
from checkout.db import db
from checkout.errors import InvalidField
from checkout.merchants.models import Merchant
from tests import builders
from tests.conftest import Api, make_merchant
from tests.pages.conftest import form_action

ROOT = Path(__file__).resolve().parents[2]


def logo_png(width=300, height=100) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (10, 80, 160)).save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
def vault_url(api):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    return api.post("/vault/create", builders.card_vault(token, return_url="https://shop.example/r"), expect=200)[
        "checkout_url"
    ]


@pytest.mark.parametrize(
    "mangle, status",
    [
        (lambda url: url.split("?")[0] + "?view=web", 400),
        (lambda url: url[:-3] + "abc", 400),
        (lambda url: url.replace("token=", "token=x"), 400),
        (lambda url: url.replace("/pages/vault?", "/pages/payout?"), 400),  # a token of another page
    ],
)
def test_bad_tokens_get_a_clear_4xx_page(customer, vault_url, mangle, status):
    page = customer.get(mangle(vault_url) + "&language=en")
    assert page.status_code == status
    html = page.get_data(as_text=True)
    assert "This link is not valid" in html and "Traceback" not in html


def test_headers_of_every_page(customer, vault_url):
    page = customer.get(vault_url)
    csp = page.headers["Content-Security-Policy"]
    nonce = re.search(r"'nonce-([^']+)'", csp).group(1)
    assert f'<script nonce="{nonce}" src="/static/js/pages.js">' in page.get_data(as_text=True)
    assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert "form-action 'self' https://shop.example" in csp
    assert page.headers["Cache-Control"] == "no-store" and page.headers["Referrer-Policy"] == "same-origin"
    assert "X-Frame-Options" not in page.headers
    assert not re.search(r"<script(?![^>]*(nonce=|type=\"application/json\"))", page.get_data(as_text=True))


@pytest.mark.parametrize(
    "origin, csrf, status",
    [
        ("https://evil.example", None, 403),
        (None, None, 403),
        ("http://checkout.test", "0" * 40, 403),
    ],
)
def test_posts_from_elsewhere_are_refused(customer, vault_url, api, origin, csrf, status):
    page = customer.get(vault_url)
    data = {"decision": "accept", **({"csrf": csrf} if csrf else {})}
    answer = customer.post(form_action(page, "/pages/vault"), data, page=None if csrf else page, origin=origin)
    assert answer.status_code == status
    vault = re.search(
        r"vt_[0-9a-f]+", customer.get(vault_url.replace("/pages/vault?", "/pages/vault/status?")).get_data(as_text=True)
    )
    assert customer.get(vault_url.replace("/pages/vault?", "/pages/vault/status?")).get_json()["status"] == "PENDING"
    assert vault is None  # the status answer does not leak the vault token


@pytest.mark.parametrize(
    "headers, query, view",
    [
        ({}, "", "web"),
        ({}, "&view=h5", "h5"),
        ({"Sec-CH-UA-Mobile": "?1"}, "", "h5"),
        ({"User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 7) Mobile Safari/537.36"}, "", "h5"),
        ({"Sec-CH-UA-Mobile": "?1"}, "&view=web", "web"),
    ],
)
def test_layout_choice(customer, vault_url, headers, query, view):
    assert f'class="view-{view}"' in customer.get(vault_url + query, **headers).get_data(as_text=True)


def test_viewport_allows_zoom(customer, vault_url):
    html = customer.get(vault_url).get_data(as_text=True)
    viewport = re.search(r'<meta name="viewport" content="([^"]+)"', html).group(1)
    assert "user-scalable" not in viewport and "maximum-scale" not in viewport


def logo_image(customer, url: str, view: str) -> tuple[str, Image.Image]:
    """The page's logo <img> (its box) and the image it loads."""
    html = customer.get(url + f"&view={view}").get_data(as_text=True)
    src = re.search(r'<img src="([^"]+)" width="(\d+)" height="(\d+)" alt="([^"]*)"', html)
    assert (int(src.group(2)), int(src.group(3))) == {"web": (128, 64), "h5": (42, 42)}[view]
    return src.group(4), Image.open(io.BytesIO(customer.get(src.group(1)).data)).convert("RGBA")


def test_logos_are_resized_without_distortion(app, client, customer):
    merchant = make_merchant(app, "Logo Ltda", logo_png=logo_png(200, 100))  # 2:1, as wide as H5 keeps
    api = Api(client, merchant)
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    url = api.post("/vault/create", builders.card_vault(token), expect=200)["checkout_url"]
    for view, box in (("web", (128, 64)), ("h5", (42, 42))):
        alt, image = logo_image(customer, url, view)
        assert alt == "Logo Ltda" and image.size == (2 * box[0], 2 * box[1])
        left, top, right, bottom = image.getbbox()  # the opaque part: the logo, aspect 2:1 kept
        assert abs((right - left) / (bottom - top) - 2) < 0.1


def test_a_wide_logo_becomes_the_initials_on_h5_and_stays_whole_on_the_web(app, client, customer):
    merchant = make_merchant(app, "Loja Exemplo", logo_png=logo_png(300, 100))  # 3:1: a 42x14 strip on H5
    api = Api(client, merchant)
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    url = api.post("/vault/create", builders.card_vault(token), expect=200)["checkout_url"]
    _, web = logo_image(customer, url, "web")
    left, top, right, bottom = web.getbbox()
    assert abs((right - left) / (bottom - top) - 3) < 0.1  # the web keeps the logo itself
    alt, h5 = logo_image(customer, url, "h5")
    assert alt == "Loja Exemplo" and h5.size == (84, 84)
    assert h5.getbbox() == (0, 0, 84, 84)  # a square mark filling the box, not a strip
    assert h5.getpixel((8, 42))[:3] == (8, 80, 160)  # the logo's own colour (10, 80, 160), to 8 levels
    letters = {colour[:3] for _, colour in h5.crop((20, 28, 64, 56)).getcolors(44 * 28)}
    assert (255, 255, 255) in letters  # white initials: they read best on that blue
    other = make_merchant(app, "Acme Pagamentos", logo_png=logo_png(300, 100))
    other_url = Api(client, other).post(
        "/vault/create",
        builders.card_vault(Api(client, other).post("/card/token", builders.card(), expect=200)["token"]),
        expect=200,
    )["checkout_url"]
    assert logo_image(customer, other_url, "h5")[1].tobytes() != h5.tobytes()  # its own initials, AP not LE


def test_a_non_image_logo_is_refused(app):

    with pytest.raises(InvalidField, match="the logo must be a PNG image"):
        make_merchant(app, "Bad Logo", logo_png=b"<svg></svg>")


@pytest.mark.parametrize(
    "headers, query, words",
    [
        ({"Accept-Language": "es-MX,es;q=0.9"}, "", "Datos de la tarjeta"),
        ({"Accept-Language": "pt-BR"}, "", "Dados do cartão"),
        ({"Accept-Language": "de-DE"}, "", "Card details"),
        ({"Accept-Language": "pt-BR"}, "&language=en", "Card details"),
    ],
)
def test_language_from_the_browser_when_the_session_has_no_country(customer, api, headers, query, words):
    url = api.post("/card/session", {}, expect=200)["card_url"]
    assert words in customer.get(url + query, **headers).get_data(as_text=True)


def test_merchant_and_customer_text_is_escaped(app, client, customer):
    merchant = make_merchant(app, '<script>alert("m")</script>')
    api = Api(client, merchant)
    vault = api.post(
        "/vault/create",
        builders.pix_vault(
            clock.brazil_today(), subject="<img src=x onerror=alert(1)>", pix={"customer": {"name": "<b>Ana</b>"}}
        ),
        expect=200,
    )
    html = customer.get(vault["checkout_url"]).get_data(as_text=True)
    assert "<script>alert" not in html and "<img src=x" not in html and "<b>Ana</b>" not in html
    assert "&lt;script&gt;alert" in html and "&lt;b&gt;Ana&lt;/b&gt;" in html


def test_every_page_weighs_under_50_kb(customer, api, payout_api, merchant, fund, vault_url):
    fund(merchant, "USD", "100.00")
    assets = sum((ROOT / "static" / part).stat().st_size for part in ("css/pages.css", "js/pages.js"))
    urls = [
        vault_url,
        api.post("/vault/create", builders.pix_vault(clock.brazil_today()), expect=200)["checkout_url"],
        api.post("/card/session", {}, expect=200)["card_url"],
        api.post("/trade/pay", builders.direct("PIX"), expect=200)["pay_url"],
        api.post("/trade/pay", builders.direct("Boleto", out_trade_no="b"), expect=200)["pay_url"],
        payout_api.post("/checkout", builders.checkout_session(), expect=200)["data"]["checkout_url"],
    ]
    for url in urls:
        page = customer.get(url)
        assert page.status_code == 200
        assert len(page.data) + assets < 50 * 1024, url


def test_direct_payment_return_url_host_must_be_registered_outside_the_sandbox(app, api):
    app.config["SANDBOX"] = False
    try:
        body = api.post("/trade/pay", builders.direct("PIX", return_url="https://evil.example/x"), expect=400)
        assert body["sub_msg"] == "return_url: host is not one of the merchant's registered return hosts"
    finally:
        app.config["SANDBOX"] = True


def test_unknown_page_paths_answer_the_page_error(customer):
    page = customer.get("/pages/nothing-here?language=en")
    assert page.status_code == 404 and "We could not find this payment" in page.get_data(as_text=True)
    assert "default-src 'none'" in page.headers["Content-Security-Policy"]
    assert customer.get("/pages/logo/M000/web.png").status_code == 404


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("frame_origins", "https://shop.example:443;frame-ancestors *"),
        ("frame_origins", "https://shop.example;frame-ancestors *"),
        ("frame_origins", "https://shop.example:99999"),
        ("return_hosts", "shop.example;frame-ancestors *"),
        ("return_hosts", "shop.example:443"),
    ],
)
def test_a_crafted_origin_or_host_is_refused_when_registered(app, field, value):
    with pytest.raises(InvalidField) as refused:
        make_merchant(app, "Loja", **{field: [value]})
    assert str(refused.value).startswith(f"{field}: must")


def test_registered_origins_are_kept_in_canonical_form(app, client, customer):
    credentials = make_merchant(app, "Loja", frame_origins=["HTTPS://Shop.Example:443/"])
    api = Api(client, credentials)
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    vault = api.post("/vault/create", builders.card_vault(token), expect=200)
    page = customer.get(vault["checkout_url"])
    assert "frame-ancestors https://shop.example;" in page.headers["Content-Security-Policy"] + ";"


def test_a_crafted_origin_stored_before_the_check_never_reaches_the_csp(app, client, customer):
    """A row written before origins were checked: written back again, or dropped, at render."""
    credentials = make_merchant(app, "Loja")
    with app.app_context():
        crafted = ["https://shop.example:443;frame-ancestors *", "https://ok.example"]
        db.session.execute(
            update(Merchant).where(Merchant.app_id == credentials["app_id"]).values(frame_origins=crafted)
        )
        db.session.commit()
    api = Api(client, credentials)
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    page = customer.get(api.post("/vault/create", builders.card_vault(token), expect=200)["checkout_url"])
    csp = page.headers["Content-Security-Policy"]
    assert "frame-ancestors https://ok.example" in csp and "*" not in csp


@pytest.mark.parametrize(
    "return_url",
    ["https://shop.example:443;frame-ancestors%20*/r", "https://shop.example:0/r", "https://sh op.example/r"],
)
def test_a_return_url_with_a_crafted_host_or_port_is_refused(api, row_counts, return_url):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    before = row_counts()
    answer = api.post("/vault/create", builders.card_vault(token, return_url=return_url), expect=400)
    assert answer["sub_code"] in ("invalid-parameter", "missing-arguments")
    assert answer["sub_msg"].startswith("return_url: ")
    assert row_counts() == before


@pytest.mark.parametrize(
    ("host", "origin", "status"),
    [
        ("evil.example", "http://evil.example", 403),  # a rebinding name: its Host proves nothing
        ("checkout.internal:8000", "http://checkout.internal:8000", 403),
        ("127.0.0.1:8000", "http://127.0.0.1:8000", 303),  # a developer's own machine
        ("localhost:8000", "http://localhost:8000", 303),
    ],
)
def test_without_a_public_url_the_host_header_alone_is_not_trusted(app, customer, vault_url, host, origin, status):
    app.config["PUBLIC_URL"] = None
    try:
        page = customer.get(vault_url, Host=host)
        assert page.status_code == 200
        answer = customer.post(
            form_action(page, "/pages/vault"), {"decision": "accept"}, page=page, origin=origin, Host=host
        )
    finally:
        app.config["PUBLIC_URL"] = "http://checkout.test"
    assert answer.status_code == status


def test_serve_trusts_the_address_it_listens_on(app, customer, vault_url):
    app.config.update(PUBLIC_URL=None, SERVED_ORIGINS=["http://192.0.2.7:8000"])
    try:
        page = customer.get(vault_url, Host="192.0.2.7:8000")
        answer = customer.post(
            form_action(page, "/pages/vault"),
            {"decision": "accept"},
            page=page,
            origin="http://192.0.2.7:8000",
            Host="192.0.2.7:8000",
        )
    finally:
        app.config.update(PUBLIC_URL="http://checkout.test", SERVED_ORIGINS=None)
    assert answer.status_code == 303


def test_a_page_that_fails_answers_the_pages_own_error_page(customer, vault_url, monkeypatch):
    from checkout.pages import views

    def broken(*args, **kwargs):
        raise RuntimeError("a fault no one foresaw")

    monkeypatch.setattr(views, "open_page", broken)
    page = customer.get(vault_url + "&language=en")
    html = page.get_data(as_text=True)
    assert (page.status_code, page.mimetype) == (500, "text/html")
    assert "Something went wrong on our side" in html and "Traceback" not in html and '"code"' not in html
    assert "default-src 'none'" in page.headers["Content-Security-Policy"]
