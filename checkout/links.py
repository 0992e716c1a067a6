"""Addresses handed out to merchants: the public base URL and signed hosted-page links."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from flask import current_app, request

from . import signing

# Each hosted page signs its tokens with its own purpose (the itsdangerous salt), so that a token made
# for one page never opens another.
VAULT_PAGE, CARD_ENTRY_PAGE, PAY_PAGE, PAYOUT_PAGE = "vault", "card", "pay", "payout"
CHECKOUT_PAGE = "checkout"
QR_IMAGE = "qr"  # the PIX QR image of qr_code_url: merchants embed it, so it must not open the payment page


@dataclass(frozen=True)
class Links:
    base_url: str
    secret_key: str

    def page(self, path: str, purpose: str, payload: dict) -> str:
        """`{base}/pages/{path}?token=...`, the token signed for this page's purpose only."""
        token = signing.page_token(self.secret_key, purpose, payload)
        return f"{self.base_url}/pages/{path}?{urlencode({'token': token})}"

    def vault_page(self, vault_token: str) -> str:
        return self.page("vault", VAULT_PAGE, {"vault": vault_token})

    def card_entry_page(self, merchant_id: int, country: str | None = None) -> str:
        return self.page(
            "card", CARD_ENTRY_PAGE, {"merchant": merchant_id, **({"country": country} if country else {})}
        )

    def pay_page(self, trade_no: str) -> str:
        return self.page("pay", PAY_PAGE, {"trade": trade_no})

    def checkout_page(self, trade_no: str) -> str:
        """The hosted checkout (`web_url` of /trade/create); the merchant may append `&return_url=`."""
        return self.page("checkout", CHECKOUT_PAGE, {"trade": trade_no})

    def qr_image(self, trade_no: str) -> str:
        """A PIX trade's QR as a PNG (`qr_code_url`)."""
        return self.page("pay/qr.png", QR_IMAGE, {"trade": trade_no})

    def wallet_page(self, trade_no: str) -> str:
        return self.page("wallet", PAY_PAGE, {"trade": trade_no})

    def payout_page(self, session_id: str) -> str:
        return self.page("payout", PAYOUT_PAGE, {"session": session_id})


def current() -> Links:
    """Links for the running request: CHECKOUT_PUBLIC_URL, else the address the request came to."""
    base = current_app.config["PUBLIC_URL"] or request.host_url.rstrip("/")
    return Links(base_url=base, secret_key=current_app.config["SECRET_KEY"])
