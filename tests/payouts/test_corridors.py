"""The payout corridor registry: what each view of it answers."""

from __future__ import annotations

from checkout.payouts import corridors


def test_views_of_the_registry():
    assert corridors.COUNTRIES == {"BRA": "BRL", "MEX": "MXN", "COL": "COP", "CHL": "CLP", "GLOBAL": "USD"}
    assert corridors.methods("BRA") == ("PIX", "BANKTRANSFER", "QRCODE")
    assert corridors.methods("BRA", page=True) == ("PIX", "BANKTRANSFER")
    assert corridors.WALLET_CHANNELS == ("PAYPAL", "SKRILL", "CHECKOUT")
    assert corridors.PAGE_COUNTRY_OF == {"BRL": "BRA", "MXN": "MEX", "USD": "GLOBAL"}
    assert corridors.PAGE["GLOBAL"] == corridors.PageOffer(("WALLET",), ("USD",), "USD")
    assert corridors.find("CHL", "BANKTRANSFER").api_sources == ("USD", "EUR", "GBP", "CLP")


def test_refunds_by_corridor():
    refundable = {(c.country, c.method, c.channel): (c.full_refunds, c.partial_refunds) for c in corridors.CORRIDORS}
    assert refundable[("BRA", "QRCODE", None)] == (True, True)
    assert refundable[("MEX", "SPEI", None)] == (True, False)
    assert refundable[("MEX", "CASH", None)] == (False, False)
    assert refundable[("GLOBAL", "WALLET", "CHECKOUT")] == (True, False)
    assert refundable[("GLOBAL", "WALLET", "PAYPAL")] == (False, False)
