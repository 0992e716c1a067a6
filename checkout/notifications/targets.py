"""Where notifications may be sent: the private-target policy, the address check, and a POST pinned to the
address that was checked (so that a second DNS answer cannot move it)."""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import requests
from requests.adapters import HTTPAdapter

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# Reachable by the standard library's reckoning (is_global), yet an instance-metadata or platform service
# on some clouds: 192.0.0.192 in 192.0.0.0/24, Azure's wire server 168.63.129.16.
_METADATA = (ipaddress.ip_network("192.0.0.0/24"), ipaddress.ip_network("168.63.129.16/32"))
# IPv6 forms that carry an IPv4 address to the network: checked as the IPv4 address they carry.
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_TRANSLATED = ipaddress.ip_network("::ffff:0:0:0/96")  # IPv4-translated (SIIT), ::ffff:0:a.b.c.d
# Globally routed IPv6 unicast is 2000::/3; nothing outside it (site-local fec0::/10, ULA, link-local,
# whatever an older table of the standard library calls global) is a merchant's receiver.
_GLOBAL_UNICAST = ipaddress.ip_network("2000::/3")
_COMPATIBLE = ipaddress.ip_network("::/96")  # IPv4-compatible (deprecated), ::a.b.c.d
# Local-use NAT64 (RFC 8215): translated inside the site, to whatever it routes; older tables call it global.
_LOCAL_NAT64 = ipaddress.ip_network("64:ff9b:1::/48")


class BlockedAddress(Exception):
    pass


def private_allowed(config: Mapping[str, Any]) -> bool:
    """Whether notifications may reach loopback and private addresses: one rule for the web process (its
    sandbox resend) and the worker. Never outside the sandbox; inside it, when CHECKOUT_PRIVATE_TARGETS
    is `allow`, or, left unset, when `checkout serve` listens on loopback only (a developer's own machine,
    where the merchant's receiver is on localhost). Anything else (a non-loopback listener, a WSGI server
    or a `checkout worker` that cannot know where the web process listens) is the safe default: refused."""
    if not config["SANDBOX"]:
        return False
    setting = config.get("PRIVATE_TARGETS")
    if setting is None:
        return bool(config.get("LISTENS_ON_LOOPBACK_ONLY"))
    return setting == "allow"


def carried_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one stands for: mapped, NAT64, 6to4 or IPv4-compatible."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64 or address in _TRANSLATED or (address in _COMPATIBLE and int(address) > 1):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def refusal(address: Address) -> str | None:
    """Why a notification may not go to `address` (None: it may)."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.teredo is not None:
            return "a Teredo tunnel address"
        if address in _LOCAL_NAT64:
            return "a local-use NAT64 address"
        carried = carried_ipv4(address)
        if carried is not None:
            return refusal(carried)
        if address not in _GLOBAL_UNICAST:
            return "not a public address"
    if address.is_multicast or not address.is_global:
        return "not a public address"
    if any(address in network for network in _METADATA if network.version == address.version):
        return "a cloud metadata address"
    return None


def public_address(host: str, port: int) -> str:
    """Resolve `host` once and answer the address to connect to; every address it resolves to must be
    public, so that no answer of a round-robin or rebinding name reaches inside."""
    try:
        answers = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise BlockedAddress(f"{host} does not resolve: {exc}") from None
    addresses = [ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0]) for *_, sockaddr in answers]
    if not addresses:
        raise BlockedAddress(f"{host} does not resolve")
    for address in addresses:
        reason = refusal(address)
        if reason:
            raise BlockedAddress(f"{host} resolves to {address}, which notifications may not reach ({reason})")
    return str(addresses[0])


class _PinnedTLS(HTTPAdapter):
    """HTTPS to an address, with the certificate and SNI checked against the host name it was resolved from."""

    def __init__(self, hostname: str):
        self.hostname = hostname
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs.update(server_hostname=self.hostname, assert_hostname=self.hostname)
        super().init_poolmanager(*args, **kwargs)


# Per thread by nature: a requests.Session is not safe to share between threads, and each sending thread
# keeps its own kept-alive connections per destination.
_local = threading.local()


def _session(key: str, adapter: HTTPAdapter | None = None) -> requests.Session:
    """One session per thread and destination: kept connections are reused, never shared across threads."""
    sessions = _local.__dict__.setdefault("sessions", {})
    if key not in sessions:
        session = requests.Session()
        session.trust_env = False  # an environment proxy would resolve the name again, unchecked
        if adapter is not None:
            session.mount("https://", adapter)
        if len(sessions) >= 64:
            sessions.pop(next(iter(sessions))).close()
        sessions[key] = session
    return sessions[key]


def send(url: str, body: bytes, headers: dict[str, str], *, allow_private: bool, **options) -> requests.Response:
    """POST `body` to `url`. Unless private targets are allowed, the host is resolved once, checked, and
    the connection made to that very address (the Host header and TLS name stay the URL's)."""
    if allow_private:
        return _session("").post(url, data=body, headers=headers, **options)
    parts = urlsplit(url)
    try:
        host = (parts.hostname or "").encode("idna").decode("ascii")  # as DNS, the Host header and TLS see it
    except UnicodeError:
        raise BlockedAddress(f"{parts.hostname} is not a valid host name") from None
    port = parts.port or (443 if parts.scheme == "https" else 80)
    address = public_address(host, port)
    literal = f"[{address}]" if ":" in address else address
    pinned = urlunsplit((parts.scheme, f"{literal}:{port}", parts.path or "/", parts.query, ""))
    default_port = port == (443 if parts.scheme == "https" else 80)
    named = f"[{host}]" if ":" in host else host
    host_header = named if default_port else f"{named}:{port}"
    session = _session(f"{parts.scheme}://{host}", _PinnedTLS(host) if parts.scheme == "https" else None)
    return session.post(pinned, data=body, headers={**headers, "Host": host_header}, **options)
