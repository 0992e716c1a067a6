"""The payout corridor registry: what each view of it answers."""

from __future__ import annotations

from checkout.payouts import corridors


def test_views_of_the_registry():
    assert corridors.COUNTRIES == {
        "BRA": "BRL",
        "MEX": "MXN",
        "COL": "COP",
        "CHL": "CLP",
        "ARG": "ARS",
        "ECU": "USD",
        "GTM": "GTQ",
        "PAN": "USD",
        "PER": "PEN",
        "RUS": "RUB",
        "TUR": "TRY",
        "URY": "UYU",
        "GLOBAL": "USD",
    }
    assert corridors.methods("BRA") == ("PIX", "BANKTRANSFER", "QRCODE", "WALLET")
    assert corridors.methods("BRA", page=True) == ("PIX", "BANKTRANSFER")
    assert corridors.methods("COL") == ("CASHOUT", "BANKTRANSFER", "TRANSFIYA", "WALLET")
    assert corridors.WALLET_CHANNELS == ("PAYPAL", "SKRILL", "CHECKOUT")
    assert {c: corridors.channels(c, "WALLET") for c in ("BRA", "MEX", "COL", "CHL", "ARG", "RUS", "TUR")} == {
        "BRA": ("PAGSMILE",),
        "MEX": ("PAGSMILE",),
        "COL": ("TPAGA",),
        "CHL": ("VITA",),
        "ARG": ("MERCADOPAGO",),
        "RUS": ("QIWI",),
        "TUR": ("PAPARA",),
    }
    assert corridors.route("GTQ", "BANKTRANSFER", None) == "GTM"  # the Guatemalan page's country value
    assert corridors.route("ARG", "WALLET", "PAYPAL") == "GLOBAL"
    assert corridors.route("ARG", "WALLET", "MERCADOPAGO") == "ARG"


def test_the_hosted_page_keeps_the_seeds_combinations():
    assert corridors.PAGE_COUNTRY_OF == {"BRL": "BRA", "MXN": "MEX", "USD": "GLOBAL"}
    assert set(corridors.PAGE) == {"BRA", "MEX", "GLOBAL"}
    assert corridors.PAGE["GLOBAL"] == corridors.PageOffer(("WALLET",), ("USD",), "USD")
    assert corridors.PAGE["BRA"] == corridors.PageOffer(("PIX", "BANKTRANSFER"), ("USD", "BRL"), "BRL")


def test_source_currencies_per_corridor():
    # Each submit page's source currencies: the local one where the page lists it.
    sources = {
        ("CHL", "BANKTRANSFER", None): ("USD", "EUR", "GBP", "CLP"),
        ("ARG", "WALLET", "MERCADOPAGO"): ("USD", "EUR", "GBP", "ARS"),
        ("PER", "BANKTRANSFER", None): ("USD", "EUR", "GBP", "PEN"),
        ("TUR", "WALLET", "PAPARA"): ("USD", "EUR", "GBP", "TRY"),
        ("GTM", "BANKTRANSFER", None): ("USD", "EUR", "GBP"),
        ("URY", "BANKTRANSFER", None): ("USD", "EUR", "GBP"),
        ("RUS", "WALLET", "QIWI"): ("USD", "EUR", "GBP"),
        ("ECU", "BANKTRANSFER", None): ("USD", "EUR", "GBP"),
        ("BRA", "WALLET", "PAGSMILE"): ("USD", "EUR", "GBP"),
    }
    assert {key: corridors.find(*key).api_sources for key in sources} == sources


def test_refunds_by_corridor():
    refundable = {(c.country, c.method, c.channel): (c.full_refunds, c.partial_refunds) for c in corridors.CORRIDORS}
    assert refundable[("BRA", "QRCODE", None)] == (True, True)
    assert refundable[("MEX", "SPEI", None)] == (True, False)
    assert refundable[("MEX", "CASH", None)] == (False, False)
    assert refundable[("GLOBAL", "WALLET", "CHECKOUT")] == (True, False)
    assert refundable[("GLOBAL", "WALLET", "PAYPAL")] == (False, False)
    # The seed's rule 2 names the service's own wallet: the Pagsmile wallet, in both its countries.
    assert refundable[("BRA", "WALLET", "PAGSMILE")] == refundable[("MEX", "WALLET", "PAGSMILE")] == (True, False)
    # No other new corridor is named by the seed's refund rules (nor by its page): no refunds.
    new = {"ARG", "ECU", "GTM", "PAN", "PER", "RUS", "TUR", "URY"}
    assert {refundable[key] for key in refundable if key[0] in new} == {(False, False)}
    for key in [("COL", "BANKTRANSFER", None), ("COL", "TRANSFIYA", None), ("COL", "WALLET", "TPAGA")]:
        assert refundable[key] == (False, False)
    assert refundable[("CHL", "WALLET", "VITA")] == (False, False)
