"""Live `checkout serve` on a free port with a fresh SQLite database, a second (merchant) origin, Chromium."""

from __future__ import annotations

import io
import json
import os
import subprocess
import threading
from datetime import date, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from PIL import Image, ImageDraw
from sqlalchemy import create_engine, text

from checkout.demo.client import Shop
from tests import cardscan, processes

CHROMIUM = os.environ.get("CHECKOUT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Third-party cookies blocked, as in browsers that phase them out: pages must not need them.
    "--test-third-party-cookie-phaseout",
]
START_TIMEOUT = 30
ARTIFACTS = Path(
    os.environ.get(
        "CHECKOUT_E2E_ARTIFACTS",
        Path(__file__).resolve().parents[1] / "e2e-artifacts" / datetime.now().strftime("%Y%m%d-%H%M%S"),
    )
)


def pytest_configure(config) -> None:
    """One run's pictures in one folder: xdist's workers, started after this, take the controller's."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        os.environ["CHECKOUT_E2E_ARTIFACTS"] = str(ARTIFACTS)


class MerchantSite(BaseHTTPRequestHandler):
    """The merchant's own origin: a page that frames ours and records what it is told, and a return page."""

    # Every notification the receiver was sent, in arrival order: (headers, raw body); see `notified`.
    received: list[tuple[dict, bytes]] = []
    arrived = threading.Condition()

    def do_GET(self):  # noqa: N802 (http.server's name)
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        if parts.path == "/frame":
            # What docs/hosted-pages.md tells merchants to do: only messages from the frame, from the service's
            # origin; a resize sets the frame's height. #received: the last other message; #messages: every one.
            src = query["src"][0]
            height = int(query.get("height", ["720"])[0])
            body = f"""<!doctype html><html><head><title>Shop</title><link rel="icon" href="data:,"></head><body>
<h1>Shop checkout</h1><p id="received">nothing yet</p><ol id="messages"></ol>
<iframe id="checkout" src="{src}" width="420" height="{height}" title="checkout"></iframe>
<script>var frame = document.getElementById("checkout"), service = new URL(frame.src).origin;
window.addEventListener("message", function (e) {{
  if (e.source !== frame.contentWindow || e.origin !== service) {{ return; }}
  var text = JSON.stringify({{origin: e.origin, data: e.data}}), item = document.createElement("li");
  item.textContent = text;
  document.getElementById("messages").appendChild(item);
  if (e.data && e.data.type === "checkout.resize") {{ frame.height = String(e.data.height); }}
  else {{ document.getElementById("received").textContent = text; }}
}});</script></body></html>"""
        elif parts.path == "/back":
            token = query.get("token", [""])[0]
            body = f"""<!doctype html><html><head><title>Back at the shop</title>
<link rel="icon" href="data:,"></head><body><h1>Back at the shop</h1><p id="token">{token}</p></body></html>"""
        else:
            self.send_error(404)
            return
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):  # noqa: N802
        """The shop's notification receiver: every notification is answered `success`, as the docs ask."""
        raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if urlsplit(self.path).path != "/notify":
            self.send_error(404)
            return
        with MerchantSite.arrived:
            MerchantSite.received.append((dict(self.headers), raw))
            MerchantSite.arrived.notify_all()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", "7")
        self.end_headers()
        self.wfile.write(b"success")

    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def shop():
    """http://localhost:<port>: another site than the service at 127.0.0.1, so frames are cross-site."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), MerchantSite)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def notified(shop):
    """Wait for a notification to reach the shop's receiver: `notified(match, timeout)` answers the first
    (headers, raw body) that `match(headers, raw)` accepts, once it arrives, or None after `timeout` seconds."""

    def wait(match, timeout: float = 30.0) -> tuple[dict, bytes] | None:
        def found():
            return next((n for n in MerchantSite.received if match(*n)), None)

        with MerchantSite.arrived:
            return MerchantSite.arrived.wait_for(found, timeout)

    return wait


@pytest.fixture(scope="session")
def server_env(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("live")
    return {
        **os.environ,
        "CHECKOUT_DATABASE_URL": f"sqlite:///{folder / 'checkout.sqlite3'}",
        "CHECKOUT_SECRET_KEY": "e2e-secret-key-0123456789abcdef",
        "CHECKOUT_SANDBOX": "on",
    }


@pytest.fixture(scope="session")
def live_server(server_env, tmp_path_factory):
    """Base URL of a running `checkout serve` (worker included); ready when /healthz answers."""
    port = processes.free_port()
    base = f"http://127.0.0.1:{port}"
    # Its log goes to a file: a pipe nobody reads would fill and stall the server.
    log = tmp_path_factory.mktemp("live-log") / "serve.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            processes.checkout_command("serve", "--host", "127.0.0.1", "--port", str(port)),
            env=server_env,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
    if not processes.wait_until_ready(f"{base}/healthz", process, START_TIMEOUT):
        processes.stop(process)
        raise RuntimeError(f"checkout serve did not start:\n{log.read_text()}")
    yield base
    processes.stop(process)
    _assert_nothing_kept(server_env, log)


def _assert_nothing_kept(server_env: dict, log: Path) -> None:
    """After every journey in the browser: no card number or security code in any table of the database,
    and none of those, no merchant key and not the secret key, in the server's log (docs/security.md)."""
    engine = create_engine(server_env["CHECKOUT_DATABASE_URL"])
    try:
        kept = cardscan.card_data(engine)
        secrets = cardscan.merchant_secrets(engine) | {server_env["CHECKOUT_SECRET_KEY"]}
    finally:
        engine.dispose()
    assert not kept, f"card data kept in the database: {kept}"
    logged = cardscan.leaks(log.read_text(), secrets)
    assert not logged, f"in the server's log: {logged}"


def _logo() -> bytes:
    image = Image.new("RGB", (300, 100), (12, 92, 170))
    ImageDraw.Draw(image).text((24, 40), "LOJA EXEMPLO", fill="white")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


@pytest.fixture(scope="session")
def merchant(server_env, live_server, shop, tmp_path_factory) -> dict:
    logo = tmp_path_factory.mktemp("logo") / "logo.png"
    logo.write_bytes(_logo())
    out = subprocess.run(
        processes.checkout_command(
            "merchants",
            "create",
            "--name",
            "Loja Exemplo",
            "--logo",
            str(logo),
            "--document",
            "16727230000197",
            "--frame-origin",
            shop,
            "--return-host",
            "localhost",
        ),
        env=server_env,
        capture_output=True,
        text=True,
        check=True,
    )
    credentials = json.loads(out.stdout)
    subprocess.run(
        processes.checkout_command(
            "merchants", "fund", "--app-id", credentials["app_id"], "--currency", "USD", "--amount", "100000.00"
        ),
        env=server_env,
        capture_output=True,
        check=True,
    )
    return credentials


@pytest.fixture(scope="session")
def shop_api(live_server, merchant) -> Shop:
    """The merchant's server talking to the live service over HTTP: the demo shop's own client."""
    return Shop(live_server, merchant)


@pytest.fixture(scope="session")
def demo_api(live_server, server_env) -> Shop:
    """The Demo Shop's own credentials (provisioned by `checkout serve`), read from the service's database:
    its sandbox clock is its own, so only it can move the time its pages see."""
    engine = create_engine(server_env["CHECKOUT_DATABASE_URL"])
    try:
        with engine.connect() as conn:
            row = conn.execute(
                text("SELECT app_id, security_key, app_key FROM merchants WHERE name = 'Demo Shop' ORDER BY id LIMIT 1")
            ).one()
    finally:
        engine.dispose()
    return Shop(live_server, {"app_id": row.app_id, "security_key": row.security_key, "app_key": row.app_key})


@pytest.fixture(scope="session")
def demo(live_server) -> str:
    """The merchant demo, on another host name than the service (localhost vs 127.0.0.1): cross-site."""
    return f"http://localhost:{urlsplit(live_server).port}/demo"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


PROFILES = {"desktop": {"viewport": {"width": 1280, "height": 900}}, "mobile": "Pixel 7"}


@pytest.fixture(params=list(PROFILES))
def profile(request, browser, playwright, live_server, shop):
    """A fresh context per test in the desktop or the mobile device profile. It fails the test on a
    console error, and on any request to a host other than the service, the demo and the shop."""
    options = PROFILES[request.param]
    options = playwright.devices[options] if isinstance(options, str) else options
    context = browser.new_context(**options, locale="en-US")
    errors: list[str] = []
    port = urlsplit(live_server).port
    allowed = {f"127.0.0.1:{port}", f"localhost:{port}", urlsplit(shop).netloc}
    foreign: list[str] = []
    context.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    context.on("weberror", lambda error: errors.append(str(error.error)))
    context.on(
        "request",
        lambda req: (
            foreign.append(req.url)
            if urlsplit(req.url).scheme in ("http", "https") and urlsplit(req.url).netloc not in allowed
            else None
        ),
    )
    context.name = request.param
    context.expected_statuses = set()  # a test that opens an error page on purpose says which status
    yield context
    context.close()
    unexpected = [e for e in errors if not any(f"status of {status} " in e for status in context.expected_statuses)]
    assert unexpected == [], unexpected
    assert foreign == [], foreign


def framed(page, shop: str, url: str):
    """Open one of our pages inside the shop's cross-site iframe ({shop}/frame?src=...); the frame's locator."""
    page.goto(f"{shop}/frame?src={quote(url, safe='')}")
    return page.frame_locator("#checkout")


def shot_path(context: str, name: str) -> Path:
    """Where a screenshot goes: e2e-artifacts/<run>/<context>/<name>.png (the gallery reads that layout)."""
    return ARTIFACTS / context / f"{name}.png"


@pytest.fixture
def shot(profile):
    """Save a screenshot under e2e-artifacts/<run>/<context>/<name>.png; the context is the profile's name
    (desktop, mobile), or `<profile>-frame` for a page shown inside the shop's iframe."""

    def save(page, name: str, context: str | None = None) -> Path:
        path = shot_path(context or profile.name, name)
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=True)
        return path

    return save


CARD_EXPIRY = f"12/{(date.today().year + 3) % 100:02d}"  # always in the future


def fill_card(scope, number: str = "4111 1111 1111 1111", *, name: str | None = "Ana Souza") -> None:
    """A card typed into the Brazilian card entry (a page or a frame), as a customer would; not sent."""
    scope.get_by_label("Número do cartão").fill(number)
    scope.get_by_label("Validade").fill(CARD_EXPIRY)
    scope.get_by_label("Código de segurança").fill("123")
    if name is not None:
        scope.get_by_label("Nome impresso no cartão").fill(name)
