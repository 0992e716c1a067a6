"""Origins and host names as they may appear in a header: parsed, checked, and written back in one form."""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
_DEFAULT_PORTS = {"http": 80, "https": 443}


class BadOrigin(ValueError):
    pass


def host_name(text: str) -> str:
    """A host as it may be written into a header: a DNS name (IDNA, lower case), an IPv4 address, or an
    IPv6 address in brackets. Anything else (a `;`, a space, a quote, an empty label) is refused."""
    host = text.strip().lower().rstrip(".")
    if "%" in host:  # an IPv6 zone id takes any text: never in a header
        raise BadOrigin(f"not a host name: {text!r}")
    if host.startswith("[") and host.endswith("]"):
        try:
            return f"[{ipaddress.IPv6Address(host[1:-1]).compressed}]"
        except ValueError:
            raise BadOrigin(f"not an IPv6 address: {text!r}") from None
    try:
        return str(ipaddress.IPv4Address(host))
    except ValueError:
        pass
    try:
        ascii_host = host.encode("idna").decode("ascii")
    except UnicodeError:
        raise BadOrigin(f"not a host name: {text!r}") from None
    labels = ascii_host.split(".")
    if len(ascii_host) > 253 or not all(_LABEL.match(label) for label in labels):
        raise BadOrigin(f"not a host name: {text!r}")
    return ascii_host


def origin(url: str) -> str:
    """`scheme://host[:port]` of an absolute http(s) URL, the default port left out; BadOrigin when the
    scheme, host or port is not one a browser would send (e.g. a port of `443;frame-ancestors *`)."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:  # an unbalanced or invalid bracketed IPv6 host
        raise BadOrigin(f"not a URL: {url!r}") from None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        raise BadOrigin(f"not an absolute http(s) URL: {url!r}")
    try:
        port = parts.port
    except ValueError:
        raise BadOrigin(f"not a valid port in {url!r}") from None
    if port is not None and not 0 < port < 65536:
        raise BadOrigin(f"not a valid port in {url!r}")
    hostname = parts.hostname
    host = host_name(f"[{hostname}]" if ":" in hostname else hostname)
    return f"{scheme}://{host}" if port in (None, _DEFAULT_PORTS[scheme]) else f"{scheme}://{host}:{port}"


def is_loopback(host: str) -> bool:
    """localhost, 127.0.0.0/8 or ::1 (brackets allowed)."""
    bare = host.strip("[]").lower()
    if bare == "localhost":
        return True
    try:
        return ipaddress.ip_address(bare).is_loopback
    except ValueError:
        return False


def address_key(host: str) -> str:
    """Whom a connection counts against: its IPv4 address, or the /64 of an IPv6 one (a single host or
    subscriber is commonly handed a whole /64, so its addresses are one client's)."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)
