"""Origins and host names written into headers: one canonical form, nothing smuggled through a port or host."""

import pytest

from checkout import origins


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://shop.example", "https://shop.example"),
        ("HTTPS://Shop.Example:443/", "https://shop.example"),
        ("http://shop.example:80", "http://shop.example"),
        ("https://shop.example:8443/back?x=1", "https://shop.example:8443"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("http://[::1]:8000/pages", "http://[::1]:8000"),
        ("https://loja.com.br.", "https://loja.com.br"),
        ("https://bücher.example", "https://xn--bcher-kva.example"),  # the IDNA example everyone quotes
    ],
)
def test_origins_are_written_back_in_one_form(url, origin):
    assert origins.origin(url) == origin


@pytest.mark.parametrize(
    "url",
    [
        "https://shop.example:443;frame-ancestors *",
        "https://shop.example:0",
        "https://shop.example:65536",
        "https://shop.example:-1",
        "https://shop.example;frame-ancestors *",
        "https://shop example",
        "https://shop.example%20*",
        "https://'self'",
        "javascript://shop.example",
        "https://",
        "https://-shop.example",
        "https://shop..example",
        "https://[::zz]",
        "https://[fe80::1%;frame-ancestors *]/",  # a zone id takes any text
        "https://[fe80::1%25eth0]/",
    ],
)
def test_what_a_browser_would_never_send_is_refused(url):
    with pytest.raises(origins.BadOrigin):
        origins.origin(url)
