"""Settings: logo upload with previews, return hosts and frame origins, default language; own merchant only."""

from __future__ import annotations

import io
import re

import pytest
from babel import Locale
from PIL import Image, ImageFile
from sqlalchemy import event

from checkout import clock, translations
from checkout.db import db
from checkout.merchants.service import find_by_app_id
from tests import builders
from tests.merchants.helpers import progressive_jpeg

from .helpers import PASSWORD, Browser, add_user, failures


def image(width: int = 300, height: int = 100, fmt: str = "PNG", colour=(200, 30, 60), **save) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, format=fmt, **save)
    return out.getvalue()


def stored(app, credentials) -> dict:
    """What the merchant's row holds now, read afresh."""
    with app.app_context():
        merchant = find_by_app_id(db.session, credentials["app_id"])
        return {
            "logo": merchant.logo_png,
            "return_hosts": merchant.return_hosts,
            "frame_origins": merchant.frame_origins,
            "default_language": merchant.default_language,
        }


def upload(browser: Browser, data: bytes, name: str = "logo.png"):
    return browser.submit("/dashboard/settings/logo", {"logo": (io.BytesIO(data), name)}, form_at="/dashboard/settings")


def test_the_settings_page_shows_the_forms_and_both_previews(alice, api):
    html = alice.get("/dashboard/settings").get_data(as_text=True)
    for element in ("logo-file", "logo-upload", "preview-web", "preview-h5", "return_hosts", "frame_origins"):
        assert f'id="{element}"' in html
    assert 'id="hosts-save"' in html and 'id="language-save"' in html and 'id="logo-remove"' not in html
    assert 'enctype="multipart/form-data"' in html
    assert re.search(r'<textarea id="return_hosts"[^>]*>shop.example</textarea>', html)
    assert 'id="language-browser" name="default_language" value="browser" checked' in html
    assert 'aria-current="page">Settings<' in html


def test_a_png_logo_is_normalised_stored_previewed_and_served_by_the_pages(app, alice, api, client):
    answer = upload(alice, image(1000, 200, "PNG", pnginfo=_text_chunk()))
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/dashboard/settings#logo-title")
    logo = stored(app, api.credentials)["logo"]
    with Image.open(io.BytesIO(logo)) as kept:
        assert (kept.format, kept.size, kept.mode) == ("PNG", (256, 51), "RGBA")
        assert "secret" not in kept.info and b"secret" not in logo  # the metadata is gone
    html = alice.get("/dashboard/settings").get_data(as_text=True)
    assert "Logo saved." in html and 'id="logo-remove"' in html
    web = alice.get("/dashboard/settings/preview/web")
    page = web.get_data(as_text=True)
    assert web.status_code == 200
    assert "frame-ancestors 'self'" in web.headers["Content-Security-Policy"]
    merchant_id = api.credentials["merchant_id"]
    src = re.search(rf'<img src="(/pages/logo/{merchant_id}/web.png\?v=[0-9a-f]{{16}})" width="128" height="64"', page)
    assert src and "Loja Exemplo" in page and 'class="logo logo-web"' in page
    card_page = client.get(api.post("/card/session", {}, expect=200)["card_url"] + "&view=web")
    assert f'<img src="/pages/logo/{merchant_id}/web.png" width="128" height="64"' in card_page.get_data(as_text=True)
    served = client.get(src.group(1))
    assert served.status_code == 200 and served.mimetype == "image/png"
    with Image.open(io.BytesIO(served.data)) as picture:
        assert picture.size == (256, 128)  # the pages' own web box, twice over
    # On a phone, a logo five times as wide as tall is the shop's initials, drawn by the pages' logo route.
    h5 = alice.get("/dashboard/settings/preview/h5").get_data(as_text=True)
    assert 'class="logo logo-h5"' in h5 and f"/pages/logo/{merchant_id}/h5.png?v=" in h5
    # The dashboard's own pages still refuse every frame; the settings page may load its own previews only.
    policy = alice.get("/dashboard/settings").headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and policy.endswith("; frame-src 'self'")
    assert "frame-src" not in alice.get("/dashboard").headers["Content-Security-Policy"]
    assert "style=" not in page and "style=" not in html


def _text_chunk():
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "secret")
    return info


def test_a_jpeg_logo_is_kept_as_png(app, alice, api):
    assert upload(alice, image(64, 64, "JPEG"), "logo.jpg").status_code == 302
    with Image.open(io.BytesIO(stored(app, api.credentials)["logo"])) as kept:
        assert (kept.format, kept.size) == ("PNG", (64, 64))


def _bomb() -> bytes:
    out = io.BytesIO()
    Image.new("1", (20000, 20000)).save(out, format="PNG")  # a few kilobytes that decode to 400 megapixels
    return out.getvalue()


@pytest.mark.parametrize(
    "data, name, status, message",
    [
        (b"<svg xmlns='http://www.w3.org/2000/svg'></svg>", "logo.svg", 400, "not a readable PNG or JPEG image"),
        (image(50, 50, "GIF"), "logo.gif", 400, "must be a PNG or JPEG image"),
        (image(50, 50)[:60], "cut.png", 400, "not a readable PNG or JPEG image"),
        ("bomb", "bomb.png", 400, "at most 4096 x 4096 pixels"),
        (
            progressive_jpeg(512, 512, scans=10_000),  # decoded, it was 10,000 passes over the picture
            "scans.jpg",
            400,
            "The JPEG image is made of too many scans (at most 32): save it again as a PNG or as a baseline "
            "(not progressive) JPEG.",
        ),
        (b"\x89PNG" + b"0" * (600 * 1024), "big.png", 400, "larger than 512 KiB"),
        (b"\x89PNG" + b"0" * (2 * 1024 * 1024), "huge.png", 413, "larger than 512 KiB"),
    ],
    ids=["svg", "gif", "truncated", "bomb", "too-many-scans", "over-512-KiB", "over-the-body-limit"],
)
def test_a_bad_logo_is_answered_with_the_page_and_changes_nothing(app, alice, api, data, name, status, message):
    assert upload(alice, image()).status_code == 302
    before = stored(app, api.credentials)
    answer = upload(alice, _bomb() if data == "bomb" else data, name)
    html = answer.get_data(as_text=True)
    assert answer.status_code == status
    assert message in html and 'aria-describedby="logo-file-error logo-file-hint"' in html
    assert stored(app, api.credentials) == before


def test_no_file_chosen(alice):
    answer = alice.submit("/dashboard/settings/logo", {}, form_at="/dashboard/settings")
    assert answer.status_code == 400 and "This field is required." in answer.get_data(as_text=True)


def test_a_bad_logo_is_answered_in_the_users_language(alice):
    answer = alice.submit(
        "/dashboard/settings/logo?language=pt-BR",
        {"logo": (io.BytesIO(b"not an image"), "x.png")},
        form_at="/dashboard/settings",
    )
    assert answer.status_code == 400
    assert "O arquivo não é uma imagem PNG ou JPEG legível." in answer.get_data(as_text=True)


def test_a_jpeg_of_too_many_scans_is_refused_in_the_users_language(app, alice, api):
    answer = alice.submit(
        "/dashboard/settings/logo?language=es-MX",
        {"logo": (io.BytesIO(progressive_jpeg(64, 64, scans=33)), "logo.jpg")},
        form_at="/dashboard/settings",
    )
    assert answer.status_code == 400 and stored(app, api.credentials)["logo"] is None
    assert (
        "La imagen JPEG tiene demasiados barridos (máximo 32): guárdala de nuevo como PNG o como JPEG básico "
        "(no progresivo)." in answer.get_data(as_text=True)
    )


def test_the_upload_is_decoded_with_no_transaction_open_and_the_row_written_after(app, alice, api, monkeypatch):
    """On SQLite a transaction holds the database's write turn from its first statement (the sign-in check's
    read, here): had one been open while the upload was decoded, every other writer would have waited."""
    events: list[tuple[str, object]] = []
    load = ImageFile.ImageFile.load

    def decoding(image):
        events.append(("decode", db.session.in_transaction()))
        return load(image)

    def statement(_conn, _cursor, sql, *_args):
        events.append(("sql", sql.split()[0]))

    monkeypatch.setattr(ImageFile.ImageFile, "load", decoding)
    alice.get("/dashboard/settings")  # its CSRF token read before the events are
    event.listen(db.engine, "before_cursor_execute", statement)
    try:
        answer = upload(alice, progressive_jpeg(200, 100), "logo.jpg")
    finally:
        event.remove(db.engine, "before_cursor_execute", statement)
    assert answer.status_code == 302 and stored(app, api.credentials)["logo"]
    decodes = [i for i, (kind, _) in enumerate(events) if kind == "decode"]
    assert decodes and all(events[i][1] is False for i in decodes)
    assert events.index(("sql", "UPDATE")) > decodes[-1]


def test_removing_the_logo_brings_back_the_initials(app, alice, api):
    upload(alice, image())
    answer = alice.submit("/dashboard/settings/logo/remove", {}, form_at="/dashboard/settings")
    assert answer.status_code == 302 and stored(app, api.credentials)["logo"] is None
    preview = alice.get("/dashboard/settings/preview/h5").get_data(as_text=True)
    assert '<span class="logo-fallback" aria-hidden="true">LE</span>' in preview and "<img" not in preview


def test_hosts_and_origins_are_normalised_and_saved(app, alice, api):
    answer = alice.submit(
        "/dashboard/settings/hosts",
        {
            "return_hosts": "Shop.Example\r\n\r\npay.shop.example\r\nshop.example",
            "frame_origins": "https://Shop.Example:443/\nhttp://localhost:8080",
            "password": PASSWORD,
        },
        form_at="/dashboard/settings",
    )
    assert answer.status_code == 302
    saved = stored(app, api.credentials)
    assert saved["return_hosts"] == ["shop.example", "pay.shop.example"]
    assert saved["frame_origins"] == ["https://shop.example", "http://localhost:8080"]


def test_hosts_and_origins_change_only_with_the_users_password(app, alice, api):
    """They say where a customer's browser and money go: the password again, as for the keys."""
    before = stored(app, api.credentials)
    change = {"return_hosts": "evil.example", "frame_origins": "https://evil.example"}
    missing = alice.submit("/dashboard/settings/hosts", change, form_at="/dashboard/settings")
    assert missing.status_code == 400
    assert 'id="hosts-password-error">This field is required.<' in missing.get_data(as_text=True)
    wrong = alice.submit(
        "/dashboard/settings/hosts", {**change, "password": "not my password at all"}, form_at="/dashboard/settings"
    )
    html = wrong.get_data(as_text=True)
    assert wrong.status_code == 400 and 'id="hosts-password-error">This is not your password.<' in html
    assert ">evil.example</textarea>" in html  # what was typed stays
    assert stored(app, api.credentials) == before
    assert failures(app) == 1  # counted as a failed login
    right = alice.submit("/dashboard/settings/hosts", {**change, "password": PASSWORD}, form_at="/dashboard/settings")
    assert right.status_code == 302
    saved = stored(app, api.credentials)
    assert (saved["return_hosts"], saved["frame_origins"]) == (["evil.example"], ["https://evil.example"])
    assert failures(app) == 0  # a right password clears them, as a login does


def test_five_wrong_passwords_lock_the_hosts_like_the_login_page(app, alice, api):
    change = {"return_hosts": "evil.example", "frame_origins": "", "password": "not my password at all"}
    for _ in range(5):
        assert alice.submit("/dashboard/settings/hosts", change, form_at="/dashboard/settings").status_code == 400
    locked = alice.submit("/dashboard/settings/hosts", {**change, "password": PASSWORD}, form_at="/dashboard/settings")
    assert locked.status_code == 429 and "Try again in 15 minutes" in locked.get_data(as_text=True)
    assert stored(app, api.credentials)["return_hosts"] == ["shop.example"]


def test_every_bad_line_is_reported_and_nothing_is_saved(app, alice, api):
    before = stored(app, api.credentials)
    answer = alice.submit(
        "/dashboard/settings/hosts",
        {
            "return_hosts": "ok.example\nbad host\n\nhttps://shop.example/path",
            "frame_origins": "https://fine.example\nshop.example\nhttps://x.example/path\nhttps://user@y.example",
            "password": PASSWORD,
        },
        form_at="/dashboard/settings",
    )
    html = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert "Line 2: “bad host” is not a host name" in html
    assert "Line 4: “https://shop.example/path” is not a host name" in html
    assert "Line 1:" not in html and "Line 3:" not in html.split('id="frame_origins-error"')[0]
    origins = html.split('id="frame_origins-error"')[1]
    for line in ("Line 2: “shop.example”", "Line 3: “https://x.example/path”", "Line 4: “https://user@y.example”"):
        assert line in origins
    assert 'aria-describedby="return_hosts-hint return_hosts-error"' in html
    assert ">ok.example\nbad host\n\nhttps://shop.example/path</textarea>" in html  # what was typed stays
    assert stored(app, api.credentials) == before


def test_too_many_lines(app, alice, api):
    answer = alice.submit(
        "/dashboard/settings/hosts",
        {"return_hosts": "\n".join(f"h{i}.example" for i in range(51)), "frame_origins": "", "password": PASSWORD},
        form_at="/dashboard/settings",
    )
    assert answer.status_code == 400 and "At most 50 lines." in answer.get_data(as_text=True)
    assert stored(app, api.credentials)["return_hosts"] == ["shop.example"]


def test_a_new_return_host_is_accepted_by_the_api_right_after_saving(app, alice, api):
    app.config["SANDBOX"] = False  # only outside the sandbox must a return_url's host be registered
    try:
        body = builders.pix_vault(clock.brazil_today(), return_url="https://new.example/back")
        refused = api.post("/vault/create", body, expect=400)  # also puts the merchant in this process's cache
        assert refused["sub_msg"] == "return_url: host is not one of the merchant's registered return hosts"
        saved = alice.submit(
            "/dashboard/settings/hosts",
            {"return_hosts": "shop.example\nnew.example", "frame_origins": "", "password": PASSWORD},
            form_at="/dashboard/settings",
        )
        assert saved.status_code == 302
        assert api.post("/vault/create", body, expect=200)["code"] == "10000"
    finally:
        app.config["SANDBOX"] = True


@pytest.mark.parametrize("choice, kept", [("pt-BR", "pt-BR"), ("es-MX", "es-MX"), ("en", "en"), ("browser", None)])
def test_the_default_language_is_saved(app, alice, api, choice, kept):
    answer = alice.submit("/dashboard/settings/language", {"default_language": choice}, form_at="/dashboard/settings")
    assert answer.status_code == 302 and stored(app, api.credentials)["default_language"] == kept
    html = alice.get("/dashboard/settings").get_data(as_text=True)
    assert f'id="language-{choice}" name="default_language" value="{choice}" checked' in html


def test_each_language_is_offered_by_its_name_in_itself(alice):
    """Every catalogue found, named as CLDR writes the language in itself (capitalised to head a choice)."""
    html = alice.get("/dashboard/settings").get_data(as_text=True)
    offered = re.findall(r'<label for="language-([\w-]+)" lang="[\w-]+">([^<]+)</label>', html)
    expected = []
    for locale in translations.locales():
        own = Locale.parse(locale).get_display_name(locale)
        expected.append((locale.replace("_", "-"), own[:1].upper() + own[1:]))
    assert offered == expected
    assert {tag for tag, _ in offered} >= {"en", "pt-BR", "es-MX"}


def test_an_unknown_language_is_refused(app, alice, api):
    answer = alice.submit("/dashboard/settings/language", {"default_language": "de"}, form_at="/dashboard/settings")
    assert answer.status_code == 400 and "Choose one of the languages." in answer.get_data(as_text=True)
    assert stored(app, api.credentials)["default_language"] is None


def test_the_default_language_is_used_by_a_hosted_page(app, alice, api, client):
    alice.submit("/dashboard/settings/language", {"default_language": "es-MX"}, form_at="/dashboard/settings")
    url = api.post("/card/session", {}, expect=200)["card_url"]
    page = client.get(url, headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert "Datos de la tarjeta" in page


@pytest.mark.parametrize(
    "path, data",
    [
        ("/dashboard/settings/logo", {"logo": "x"}),
        ("/dashboard/settings/logo/remove", {}),
        ("/dashboard/settings/hosts", {"return_hosts": "evil.example", "frame_origins": "", "password": PASSWORD}),
        ("/dashboard/settings/language", {"default_language": "en"}),
    ],
)
def test_every_change_needs_the_csrf_token(app, alice, api, path, data):
    upload(alice, image())
    before = stored(app, api.credentials)
    if path.endswith("/logo"):
        data = {"logo": (io.BytesIO(image(10, 10)), "x.png")}
    answer = alice.client.post(path, data=data, environ_base={"REMOTE_ADDR": alice.address})
    assert answer.status_code == 400
    assert stored(app, api.credentials) == before


def test_settings_need_a_login(client):
    for path in ("/dashboard/settings", "/dashboard/settings/preview/web"):
        answer = client.get(path)
        assert answer.status_code == 302 and "/dashboard/login" in answer.headers["Location"]
    assert client.post("/dashboard/settings/hosts", data={"return_hosts": "x.example"}).status_code == 302


def test_each_user_changes_only_its_own_merchant(app, alice, api, other_api):
    before = stored(app, other_api.credentials)
    alice.submit(
        "/dashboard/settings/hosts",
        {"return_hosts": "mine.example", "frame_origins": "", "password": PASSWORD},
        form_at="/dashboard/settings",
    )
    upload(alice, image())
    assert stored(app, other_api.credentials) == before
    assert stored(app, api.credentials)["return_hosts"] == ["mine.example"]
    assert other_api.credentials["merchant_id"] not in alice.get("/dashboard/settings/preview/web").get_data(
        as_text=True
    )


def test_an_unknown_preview_view_is_not_found(alice):
    assert alice.get("/dashboard/settings/preview/tv").status_code == 404


def test_settings_work_with_the_sandbox_off(app, api, app_with):
    add_user(app, api.credentials, "a@shop.example")
    live = app_with(SANDBOX=False)
    browser = Browser(live.test_client())
    browser.log_in("a@shop.example")
    assert browser.get("/dashboard/settings").status_code == 200
    answer = browser.submit(
        "/dashboard/settings/hosts",
        {"return_hosts": "live.example", "frame_origins": "", "password": PASSWORD},
        form_at="/dashboard/settings",
    )
    assert answer.status_code == 302
    assert upload(browser, image()).status_code == 302
    assert (
        browser.submit(
            "/dashboard/settings/language", {"default_language": "en"}, form_at="/dashboard/settings"
        ).status_code
        == 302
    )
    saved = stored(app, api.credentials)
    assert saved["return_hosts"] == ["live.example"] and saved["logo"] and saved["default_language"] == "en"
