"""The vaults pages: the list with filters and keyset paging, a vault's page, approve, reject and void."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from sqlalchemy import select, update

from checkout import clock
from checkout.db import db
from checkout.merchants.service import find_by_app_id
from checkout.vaults import service as vaults
from checkout.vaults.models import Vault
from tests import builders

from .helpers import add_user


def card_vault(api, **overrides) -> str:
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    return api.post("/vault/create", builders.card_vault(token, **overrides), expect=200)["token"]


def pix_vault(api, **overrides) -> str:
    return api.post("/vault/create", builders.pix_vault(clock.brazil_today(), **overrides), expect=200)["token"]


def listed(html: str) -> list[str]:
    return re.findall(r'<tr class="vault-row" id="vault-([^"]+)"', html)


def next_link(html: str) -> str | None:
    found = re.search(r'id="vaults-next" rel="next" href="([^"]+)"', html)
    return found.group(1).replace("&amp;", "&") if found else None


def vault_status(app, token: str) -> str:
    with app.app_context():
        return db.session.scalar(select(Vault.status).where(Vault.token == token))


def vault_rows(app, credentials: dict, count: int, at: datetime) -> list[str]:
    """`count` pix vaults made through the service, all created at the same instant (a page boundary tie)."""
    with app.app_context():
        merchant = find_by_app_id(db.session, credentials["app_id"])
        body = builders.pix_vault(clock.brazil_today())
        from checkout.vaults.schemas import VaultCreateRequest

        request = VaultCreateRequest.model_validate({"app_id": "x", "timestamp": builders.TIMESTAMP, **body})
        tokens = [vaults.create(db.session, merchant, request, 3600, True).token for _ in range(count)]
        db.session.execute(update(Vault).where(Vault.token.in_(tokens)).values(created_at=at))
        db.session.commit()
        return tokens


def test_the_list_pages_newest_first_without_repeats_or_gaps(app, api, alice):
    tie = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    older = vault_rows(app, api.credentials, 3, datetime(2026, 11, 19, 12, 0, tzinfo=UTC))
    tied = vault_rows(app, api.credentials, 60, tie)
    newest = card_vault(api)
    first = alice.get("/dashboard/vaults").get_data(as_text=True)
    page_one = listed(first)
    assert len(page_one) == 50 and page_one[0] == newest
    # Equal created_at: the id breaks the tie, newest (highest id) first.
    assert page_one[1:] == list(reversed(tied))[:49]
    answer = alice.get(next_link(first))
    assert answer.status_code == 200
    second = answer.get_data(as_text=True)
    page_two = listed(second)
    assert page_two == list(reversed(tied))[49:] + list(reversed(older))
    assert next_link(second) is None
    assert 'id="vaults-first"' in second


def test_filters_and_search(app, api, other_api, alice):
    card = card_vault(api, card_token={"uid": "customer-7"})
    pix = pix_vault(api)
    declined = pix_vault(api)
    api.post(f"/sandbox/vaults/{declined}/reject", expect=200)
    theirs = pix_vault(other_api)

    def shown(query: str) -> list[str]:
        answer = alice.get(f"/dashboard/vaults{query}")
        assert answer.status_code == 200
        return listed(answer.get_data(as_text=True))

    assert shown("") == [declined, pix, card]
    assert shown("?type=Card") == [card]
    assert shown("?type=pix") == [declined, pix]
    assert shown("?status=DECLINED") == [declined]
    assert shown("?type=pix&status=PENDING") == [pix]
    assert shown(f"?q={pix}") == [pix]
    assert shown("?q=customer-7") == []  # the token only: a customer's uid has no index
    assert shown(f"?q={theirs}") == []
    assert shown(f"?q={pix[:-1]}") == []  # exact tokens only
    assert shown(f"?q=%20{card}%20") == [card]


@pytest.mark.parametrize(
    "query", ["?status=WHATEVER", "?type=Bank", "?before=not-a-cursor", "?q=" + "x" * 65, "?before=bm90LWEtY3Vyc29y"]
)
def test_bad_filters_answer_a_page(alice, query):
    answer = alice.get(f"/dashboard/vaults{query}")
    assert answer.status_code == 400
    html = answer.get_data(as_text=True)
    assert 'class="error"' in html and "<h1>Vaults</h1>" in html


def test_a_card_vaults_page(app, api, alice):
    token = card_vault(api)
    api.post(f"/sandbox/vaults/{token}/approve", expect=200)
    trade_no = api.post("/trade/pay", builders.vault_pay(token), expect=200)["trade_no"]
    html = alice.get(f"/dashboard/vaults/{token}").get_data(as_text=True)
    assert 'id="vault-status">Active<' in html
    assert 'id="vault-card">visa •••• 1111<' in html
    assert f'href="/dashboard/payments/{trade_no}"' in html
    assert "R$49.90" in html
    assert 'id="vault-approve"' not in html  # decided already
    assert 'id="vault-void"' in html
    assert "vault.callback" in html and 'id="deliveries-title"' in html
    assert '<a href="/dashboard/vaults" aria-current="page">' in html  # the navigation's section


def test_a_pix_vaults_page_shows_the_plan_to_the_cent(app, api, alice):
    token = pix_vault(api)
    html = alice.get(f"/dashboard/vaults/{token}").get_data(as_text=True)
    assert 'id="vault-status">Waiting for approval<' in html
    assert "from R$10.00 to R$200.00" in html
    assert "Monthly (<code>1M</code>)" in html
    assert "Ana Souza · CPF ***.533.447-**" in html and builders.CPF not in html
    assert 'id="vault-approve"' in html and 'id="vault-reject"' in html
    assert 'id="vault-void"' not in html  # /vault/void takes Card vaults only
    pt = alice.get(f"/dashboard/vaults/{token}?language=pt-BR").get_data(as_text=True)
    # The dashboard's language writes the amounts, with the currency's symbol.
    assert "Mensal" in pt and "de R$\u00a010,00 a R$\u00a0200,00" in pt


@pytest.mark.parametrize(
    ("action", "status", "label"), [("approve", "ACTIVE", "Active"), ("reject", "DECLINED", "Declined")]
)
def test_approve_and_reject_write_what_the_sandbox_api_writes(app, api, alice, action, status, label):
    by_page, by_api = pix_vault(api), pix_vault(api)
    answer = alice.submit(f"/dashboard/vaults/{by_page}/{action}", {}, form_at=f"/dashboard/vaults/{by_page}")
    assert answer.status_code == 302 and answer.headers["Location"] == f"/dashboard/vaults/{by_page}"
    api.post(f"/sandbox/vaults/{by_api}/{action}", expect=200)
    assert vault_status(app, by_page) == vault_status(app, by_api) == status

    def written(token: str) -> list[tuple]:
        found = [d for d in api.get("/sandbox/deliveries")["deliveries"] if d["subject"] == token]
        return [
            (
                d["kind"],
                d["target"],
                {k: v for k, v in d["payload"].items() if k not in ("vault_token", "timestamp", "notify_id")},
            )
            for d in found
        ]

    assert written(by_page) == written(by_api) != []
    html = alice.get(f"/dashboard/vaults/{by_page}").get_data(as_text=True)
    assert f"The vault&#39;s status is now {label}." in html


def test_deciding_twice_is_answered_on_the_page(app, api, alice):
    token = pix_vault(api)
    form_at = f"/dashboard/vaults/{token}"
    alice.submit(f"/dashboard/vaults/{token}/approve", {}, form_at=form_at)
    answer = alice.submit(f"/dashboard/vaults/{token}/reject", {}, form_at="/dashboard/vaults")
    assert answer.status_code == 400
    html = answer.get_data(as_text=True)
    assert 'id="vault-refused"' in html and "vault-not-pending" in html
    assert vault_status(app, token) == "ACTIVE"


def test_void_needs_the_confirmation_then_voids(app, api, alice):
    token = card_vault(api)
    api.post(f"/sandbox/vaults/{token}/approve", expect=200)
    form_at = f"/dashboard/vaults/{token}"
    unconfirmed = alice.submit(f"/dashboard/vaults/{token}/void", {}, form_at=form_at)
    assert unconfirmed.status_code == 400
    assert 'aria-describedby="vault-void-confirm-error"' in unconfirmed.get_data(as_text=True)
    assert vault_status(app, token) == "ACTIVE"
    answer = alice.submit(f"/dashboard/vaults/{token}/void", {"confirm": "y"}, form_at=form_at)
    assert answer.status_code == 302
    assert vault_status(app, token) == "VOIDED"
    assert [d["payload"]["vault_status"] for d in api.get("/sandbox/deliveries")["deliveries"]] == ["VOIDED", "ACTIVE"]


def test_another_merchants_vault_is_not_found_and_nothing_is_written(app, api, other_api, alice, row_counts):
    theirs_card, theirs_pix = card_vault(other_api), pix_vault(other_api)
    api.post("/sandbox/clock", {"advance_seconds": 1}, expect=200)  # the clock row exists before the counts
    assert alice.get(f"/dashboard/vaults/{theirs_pix}").status_code == 404
    assert alice.get("/dashboard/vaults/vt_nothing").status_code == 404
    before = row_counts()
    for token, action, data in [
        (theirs_pix, "approve", {}),
        (theirs_pix, "reject", {}),
        (theirs_card, "void", {"confirm": "y"}),
        (theirs_card, "void", {}),
    ]:
        assert alice.submit(f"/dashboard/vaults/{token}/{action}", data, form_at="/dashboard/vaults").status_code == 404
    assert row_counts() == before
    assert vault_status(app, theirs_pix) == "PENDING" and vault_status(app, theirs_card) == "PENDING"


def test_actions_need_the_csrf_token(app, api, alice, row_counts):
    pix, card = pix_vault(api), card_vault(api)
    before = row_counts()
    for token, action in [(pix, "approve"), (pix, "reject"), (card, "void")]:
        answer = alice.client.post(
            f"/dashboard/vaults/{token}/{action}", data={"confirm": "y"}, environ_base={"REMOTE_ADDR": alice.address}
        )
        assert answer.status_code == 400
    assert row_counts() == before


def test_with_the_sandbox_off_there_is_no_decision(app, api, app_with, make_browser, row_counts):
    token = pix_vault(api)
    add_user(app, api.credentials, "a@shop.example")
    from tests.dashboard.helpers import Browser

    live = app_with(SANDBOX=False)
    browser = Browser(live.test_client())
    browser.log_in("a@shop.example")
    page = browser.get(f"/dashboard/vaults/{token}")
    assert page.status_code == 200 and 'id="vault-approve"' not in page.get_data(as_text=True)
    before = row_counts()
    for action in ("approve", "reject"):
        assert browser.submit(f"/dashboard/vaults/{token}/{action}", {}, form_at="/dashboard/vaults").status_code == 404
    assert row_counts() == before


def test_the_pages_need_a_login(client, api):
    token = pix_vault(api)
    assert client.get("/dashboard/vaults").status_code == 302
    assert client.get(f"/dashboard/vaults/{token}").status_code == 302
    assert client.post(f"/dashboard/vaults/{token}/approve").status_code in (302, 400)
