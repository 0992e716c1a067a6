"""Where notifications may go: the private-target policy, every disguise of an inside address, DNS rebinding."""

import ipaddress
import socket

import pytest
import urllib3.util.connection
from click.testing import CliRunner

from checkout import cli, create_app, serving, worker
from checkout.demo import setup
from checkout.notifications import targets, transport
from checkout.origins import is_loopback
from tests.notifications.helpers import message_of, paid_pix

INSIDE = [
    "127.0.0.1",
    "127.8.9.10",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "100.100.100.200",  # shared address space; one cloud's metadata
    "169.254.169.254",  # link-local metadata
    "192.0.0.192",  # counted global by Python, a metadata address on one cloud
    "168.63.129.16",  # Azure's wire server: a public address
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fd00:ec2::254",  # AWS's IPv6 metadata
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::ffff:169.254.169.254",
    "::127.0.0.1",  # IPv4-compatible
    "::a9fe:a9fe",
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
    "64:ff9b::a83f:8110",  # NAT64 of 168.63.129.16
    "64:ff9b:1::a00:1",  # local-use NAT64
    "2002:7f00:1::1",  # 6to4 of 127.0.0.1
    "2002:a9fe:a9fe::1",  # 6to4 of 169.254.169.254
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
    "::ffff:0:7f00:1",  # IPv4-translated 127.0.0.1
    "::ffff:0:a9fe:a9fe",
    "fec0::1",  # site-local
    "100::1",  # discard-only
]
OUTSIDE = ["8.8.8.8", "93.184.216.34", "2001:4860:4860::8888", "64:ff9b::808:808", "2002:808:808::1"]


@pytest.mark.parametrize("address", INSIDE)
def test_inside_addresses_are_refused_in_every_form(address):
    assert targets.refusal(ipaddress.ip_address(address)) is not None


@pytest.mark.parametrize("address", OUTSIDE)
def test_public_addresses_are_allowed(address):
    assert targets.refusal(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize("host", ["localhost", "127.1", "0x7f000001", "2130706433", "0177.0.0.1", "[::1]"])
def test_names_and_numeric_spellings_of_loopback_are_refused(host):
    with pytest.raises(targets.BlockedAddress, match="which notifications may not reach"):
        targets.public_address(host.strip("[]"), 80)


@pytest.mark.parametrize(
    ("config", "allowed"),
    [
        ({"SANDBOX": False, "PRIVATE_TARGETS": "allow", "LISTENS_ON_LOOPBACK_ONLY": True}, False),
        ({"SANDBOX": True, "PRIVATE_TARGETS": None, "LISTENS_ON_LOOPBACK_ONLY": True}, True),  # serve on 127.0.0.1
        ({"SANDBOX": True, "PRIVATE_TARGETS": None, "LISTENS_ON_LOOPBACK_ONLY": False}, False),  # serve on 0.0.0.0
        ({"SANDBOX": True, "PRIVATE_TARGETS": None}, False),  # checkout worker, or a WSGI server
        ({"SANDBOX": True, "PRIVATE_TARGETS": "deny", "LISTENS_ON_LOOPBACK_ONLY": True}, False),
        ({"SANDBOX": True, "PRIVATE_TARGETS": "allow", "LISTENS_ON_LOOPBACK_ONLY": False}, True),
    ],
)
def test_the_private_target_policy(config, allowed):
    assert targets.private_allowed(config) is allowed


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.0.2.7", False),
        ("shop.example", False),
    ],
)
def test_serve_knows_whether_it_listens_on_loopback_only(host, loopback):
    assert is_loopback(host) is loopback


def test_allow_is_refused_outside_the_sandbox_and_values_are_checked(tmp_path):
    with pytest.raises(ValueError, match="needs CHECKOUT_SANDBOX=on"):
        create_app({"SANDBOX": False, "PRIVATE_TARGETS": "allow", "DATABASE_URL": f"sqlite:///{tmp_path}/a.db"})
    with pytest.raises(ValueError, match="must be allow or deny"):
        create_app({"PRIVATE_TARGETS": "sometimes", "DATABASE_URL": f"sqlite:///{tmp_path}/b.db"})


def test_the_worker_and_the_web_resend_apply_one_rule(app, api, receiver):
    """A sandbox whose listener is not loopback-only (no setting): neither the worker's round nor the
    merchant's resend (queued for that worker) reaches the receiver on 127.0.0.1: the message fails at once."""
    trade_no = paid_pix(api, receiver)
    app.config["PRIVATE_TARGETS"] = None
    try:
        worker.run_once(app)
        [delivery] = api.get("/sandbox/deliveries")["deliveries"]
        api.post(f"/sandbox/deliveries/{delivery['id']}/resend", expect=200)  # queued for the worker
        worker.run_once(app)
        [resent] = api.get("/sandbox/deliveries")["deliveries"]
    finally:
        app.config["PRIVATE_TARGETS"] = "allow"
    assert receiver.requests == []
    message = message_of(app, trade_no)
    assert (message.status, message.attempts) == ("failed", 2)
    assert [(a["manual"], a["error"]) for a in resent["attempt_log"]] == [
        (False, "127.0.0.1 resolves to 127.0.0.1, which notifications may not reach (not a public address)"),
        (True, "127.0.0.1 resolves to 127.0.0.1, which notifications may not reach (not a public address)"),
    ]


class RebindingResolver:
    """A DNS name that answers `first` once and `then` ever after; addresses pass through untouched."""

    def __init__(self, name: str, first: str, then: str):
        self.name, self.answers, self.calls = name, [first], 0
        self.then = then
        self.real = socket.getaddrinfo

    def __call__(self, host, port, *args, **kwargs):
        if host != self.name:
            return self.real(host, port, *args, **kwargs)
        self.calls += 1
        address = self.answers.pop(0) if self.answers else self.then
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]


def test_a_rebinding_name_cannot_reach_loopback(receiver, monkeypatch):
    """Checked public, then 127.0.0.1 on a second lookup: the connection goes to the address checked, and
    the receiver on 127.0.0.1 hears nothing. No packet leaves the machine: the connect is intercepted."""
    port = int(receiver.url.rsplit(":", 1)[1].split("/")[0])
    resolver = RebindingResolver("rebind.test", "93.184.216.34", "127.0.0.1")
    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    connected: list[tuple] = []

    def refuse(address, *args, **kwargs):
        connected.append(address)
        raise ConnectionRefusedError("intercepted by the test")

    monkeypatch.setattr(urllib3.util.connection, "create_connection", refuse)
    result = transport.post(f"http://rebind.test:{port}/notify", b"{}", {}, allow_private=False)
    assert connected == [("93.184.216.34", port)]
    assert resolver.calls == 1
    assert result.succeeded is False and result.error.startswith("connection failed")
    assert receiver.requests == []


def test_a_pinned_delivery_keeps_the_host_name(receiver, monkeypatch):
    """The pinned connection goes to the first answer even when later lookups say otherwise, with the
    URL's host in the Host header. (Loopback is allowed here only to observe the request.)"""
    port = int(receiver.url.rsplit(":", 1)[1].split("/")[0])
    monkeypatch.setattr(socket, "getaddrinfo", RebindingResolver("shop.test", "127.0.0.1", "192.0.2.1"))
    monkeypatch.setattr(targets, "refusal", lambda address: None)
    result = transport.post(f"http://shop.test:{port}/notify?x=1", b'{"a":1}', {}, allow_private=False)
    assert result.succeeded is True
    [request] = receiver.requests
    assert (request["headers"]["Host"], request["path"], request["raw"]) == (
        f"shop.test:{port}",
        "/notify?x=1",
        b'{"a":1}',
    )


@pytest.mark.parametrize(
    ("public_url", "allowed"),
    [(None, True), ("http://localhost:8000", True), ("https://sandbox.example", False)],
)
def test_a_loopback_listener_behind_a_public_address_is_a_shared_sandbox(tmp_path, monkeypatch, public_url, allowed):
    """The documented production set-up: `serve` on loopback behind a reverse proxy, CHECKOUT_PUBLIC_URL
    the public address. Its resend must refuse private targets as its worker does."""
    seen = {}

    class Listening:
        """The bound server `serve` runs: it only notes what the app would allow."""

        def __init__(self, app):
            self.app = app

        def print_listen(self, _format):
            pass

        def run(self):
            seen.update(allowed=targets.private_allowed(self.app.config))

    monkeypatch.setattr(serving, "create", lambda app, **kwargs: Listening(app))
    monkeypatch.setattr(setup, "provision", lambda *args: None)
    env = {"CHECKOUT_DATABASE_URL": f"sqlite:///{tmp_path}/s.db", "CHECKOUT_SECRET_KEY": "k"}
    if public_url:
        env["CHECKOUT_PUBLIC_URL"] = public_url
    for name in ("CHECKOUT_PUBLIC_URL", "CHECKOUT_PRIVATE_TARGETS"):
        monkeypatch.delenv(name, raising=False)
    # The waitress path, whose server this test replaces; granian's gets the same settings (cli/serve.py: listening).
    result = CliRunner().invoke(cli.main, ["serve", "--server", "waitress", "--no-worker", "--port", "18999"], env=env)
    assert result.exit_code == 0, result.output
    assert seen["allowed"] is allowed
