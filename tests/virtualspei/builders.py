"""Virtual SPEI request bodies with valid defaults, and the steps most tests take: open an account, pay into it."""

from __future__ import annotations

from tests.builders import NOTIFY, merge

RFC = "MAMB780915969"  # the provider's sandbox customer (data for test: Mexico)
CURP = "MAMB780915HDFRRN09"


def account(buyer_id: str = "buyer-1", **overrides) -> dict:
    return merge(
        {
            "notify_url": NOTIFY,
            "customer": {
                "buyer_id": buyer_id,
                "name": "Juan Pérez",
                "email": "juan@example.mx",
                "identify": {"type": "RFC", "number": RFC},
            },
        },
        overrides,
    )


def open_account(api, buyer_id: str = "buyer-1", **overrides) -> dict:
    return api.post("/virtual-account/spei/create", account(buyer_id, **overrides), expect=200)


def transfer(api, clabe: str, amount: str = "123.45", expect: int | None = 200) -> dict:
    return api.post(f"/sandbox/clabes/{clabe}/transfer", {"amount": amount}, expect=expect)
