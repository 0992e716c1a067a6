import threading
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest

from checkout import clock, signing
from tests import builders
from tests.conftest import Api


@pytest.fixture
def card_token(api):
    return api.post("/card/token", builders.card(), expect=200)["token"]


def test_create_card_vault(api, card_token):
    body = api.post("/vault/create", builders.card_vault(card_token), expect=200)
    assert (body["code"], body["type"], body["vault_status"]) == ("10000", "Card", "PENDING")
    assert body["token"].startswith("vt_")
    assert body["card_token"] == {
        "region": "BRA",
        "method": "CreditCard",
        "uid": "user-1",
        "token": card_token,
        "notify_url": builders.NOTIFY,
    }
    assert len(body["timestamp"]) == 19
    url = urlsplit(body["checkout_url"])
    assert (url.scheme, url.netloc, url.path) == ("http", "checkout.test", "/pages/vault")
    page_token = parse_qs(url.query)["token"][0]
    assert signing.read_page_token("test-secret-key", "vault", page_token, 60) == {"vault": body["token"]}


def test_create_pix_vault(api):
    today = clock.brazil_today()
    body = api.post("/vault/create", builders.pix_vault(today), expect=200)
    assert (body["type"], body["vault_status"]) == ("pix", "PENDING")
    assert body["pix"]["plan"] == {
        "internal": "1M",
        "start_date": today.isoformat(),
        "end_date": builders.pix_vault(today)["pix"]["plan"]["end_date"],
        "minimum_amount": "10.00",
        "maximum_amount": "200.00",
    }
    assert body["checkout_url"].startswith("http://checkout.test/pages/vault?token=")


@pytest.mark.parametrize(
    "plan, sub_msg",
    [
        ({"internal": "2W"}, "pix.plan.internal: Input should be '1W', '1M', '3M', '6M' or '1Y'"),
        ({"minimum_amount": "300.00"}, "pix.plan: minimum_amount must not exceed maximum_amount"),
        ({"maximum_amount": "0"}, "pix.plan.maximum_amount: must be between 0.01 and 9999999"),
        ({"start_date": "2026/11/21"}, "pix.plan.start_date: must be a date yyyy-MM-dd"),
    ],
)
def test_pix_plan_rules(api, row_counts, plan, sub_msg):
    before = row_counts()
    body = api.post("/vault/create", builders.pix_vault(clock.brazil_today(), pix={"plan": plan}), expect=400)
    assert body["sub_msg"] == sub_msg
    assert row_counts() == before


def test_pix_start_date_must_be_today_in_brazil(api):
    tomorrow = clock.brazil_today() + timedelta(days=1)
    body = api.post("/vault/create", builders.pix_vault(tomorrow), expect=400)
    assert body["sub_msg"] == f"pix.plan.start_date: must be today in Brazil time ({clock.brazil_today()})"


def test_pix_end_date_after_start(api):
    today = clock.brazil_today()
    body = api.post("/vault/create", builders.pix_vault(today, end=today), expect=400)
    assert body["sub_msg"] == "pix.plan: end_date must be after start_date"


@pytest.mark.parametrize(
    "identification, sub_msg",
    [
        (
            {"type": "CPF", "number": "39053344704"},
            "pix.customer.identification: number must be a valid CPF of 11 digits",
        ),
        (
            {"type": "CPF", "number": "390.533.447-05"},
            "pix.customer.identification: number must be a valid CPF of 11 digits",
        ),
        (
            {"type": "CNPJ", "number": "16727230000198"},
            "pix.customer.identification: number must be a valid CNPJ of 14 digits",
        ),
        ({"type": "RG", "number": "1"}, "pix.customer.identification.type: Input should be 'CPF' or 'CNPJ'"),
    ],
)
def test_pix_customer_document_check_digits(api, identification, sub_msg):
    body = api.post(
        "/vault/create",
        builders.pix_vault(clock.brazil_today(), pix={"customer": {"identification": identification}}),
        expect=400,
    )
    assert body["sub_msg"] == sub_msg


def test_pix_cnpj_customer(api):
    body = api.post(
        "/vault/create",
        builders.pix_vault(
            clock.brazil_today(), pix={"customer": {"identification": {"type": "CNPJ", "number": builders.CNPJ}}}
        ),
        expect=200,
    )
    assert body["pix"]["customer"]["identification"] == {"type": "CNPJ", "number": builders.CNPJ}


@pytest.mark.parametrize(
    "overrides, code, sub_msg",
    [
        ({"type": "Card", "card_token": ...}, "40001", "missing required argument: card_token"),
        ({"type": "pix"}, "40001", "missing required argument: pix"),
        ({"version": "1.0"}, "40002", "version: must be 2.0"),
        ({"version": ...}, "40001", "missing required argument: version"),
        ({"type": "card"}, "40002", "type: Input should be 'Card' or 'pix'"),
        ({"card_token": {"region": "BR"}}, "40002", "card_token.region: must be an ISO 3166-1 alpha-3 country code"),
        ({"card_token": {"method": "Debit"}}, "40002", "card_token.method: must be CreditCard"),
        ({"card_token": {"token": "tok_nope"}}, "40002", "card_token.token: unknown card token"),
    ],
)
def test_card_vault_rules(api, card_token, row_counts, overrides, code, sub_msg):
    before = row_counts()
    body = api.post("/vault/create", builders.merge(builders.card_vault(card_token), overrides), expect=400)
    assert (body["code"], body["sub_msg"]) == (code, sub_msg)
    assert row_counts() == before


def test_approve_reject_and_void(api, card_token, outbox):
    vault = api.post("/vault/create", builders.card_vault(card_token), expect=200)["token"]
    approved = api.post(f"/sandbox/vaults/{vault}/approve", expect=200)
    assert approved["vault_status"] == "ACTIVE"
    again = api.post(f"/sandbox/vaults/{vault}/reject", expect=400)
    assert (again["sub_code"], again["sub_msg"]) == (
        "vault-not-pending",
        "vault is ACTIVE; only a PENDING vault can be decided",
    )
    voided = api.post("/vault/void", {"version": "2.0", "type": "Card", "vault_token": vault}, expect=200)
    assert (voided["token"], voided["type"], voided["vault_status"]) == (vault, "Card", "VOIDED")
    twice = api.post("/vault/void", {"version": "2.0", "type": "Card", "vault_token": vault}, expect=400)
    assert (twice["sub_code"], twice["sub_msg"]) == ("vault-not-active", "vault is VOIDED and cannot be voided")
    assert [(k, p["vault_status"]) for k, _, p in outbox(vault)] == [
        ("vault.callback", "ACTIVE"),
        ("vault.callback", "VOIDED"),
    ]


def test_reject_pending_pix_vault(api, outbox):
    vault = api.post("/vault/create", builders.pix_vault(clock.brazil_today()), expect=200)["token"]
    assert api.post(f"/sandbox/vaults/{vault}/reject", expect=200)["vault_status"] == "DECLINED"
    [(_, target, payload)] = outbox(vault)
    assert (target, payload["vault_status"], payload["reason"]) == (
        builders.NOTIFY,
        "DECLINED",
        "declined by the payer",
    )


def test_authorization_session_expires(api):
    vault = api.post("/vault/create", builders.pix_vault(clock.brazil_today()), expect=200)["token"]
    clock.advance(24 * 3600 + 1)
    body = api.post(f"/sandbox/vaults/{vault}/approve", expect=400)
    assert (body["sub_code"], body["sub_msg"]) == ("vault-expired", "the authorization session has expired")


def test_void_rules(api, other_api, card_token):
    vault = api.post("/vault/create", builders.card_vault(card_token), expect=200)["token"]
    foreign = other_api.post("/vault/void", {"version": "2.0", "type": "Card", "vault_token": vault}, expect=400)
    assert (foreign["sub_code"], foreign["sub_msg"]) == ("vault-not-exist", "vault_token: no such vault")
    pix = api.post("/vault/create", builders.pix_vault(clock.brazil_today()), expect=200)["token"]
    not_card = api.post("/vault/void", {"version": "2.0", "type": "Card", "vault_token": pix}, expect=400)
    assert not_card["sub_msg"] == "type: vault_token is not a Card vault"
    wrong_type = api.post("/vault/void", {"version": "2.0", "type": "pix", "vault_token": vault}, expect=400)
    assert wrong_type["sub_msg"] == "type: must be Card"


def test_racing_approve_and_reject_decide_once(app, api, merchant):
    vault = api.post("/vault/create", builders.pix_vault(clock.brazil_today()), expect=200)["token"]
    barrier, answers = threading.Barrier(2), {}

    def decide(action):
        client = Api(app.test_client(), merchant)
        barrier.wait()
        answers[action] = client.post(f"/sandbox/vaults/{vault}/{action}")

    threads = [threading.Thread(target=decide, args=(a,)) for a in ("approve", "reject")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    codes = sorted(a["code"] for a in answers.values())
    assert codes == ["10000", "40002"]
    loser = next(a for a in answers.values() if a["code"] == "40002")
    assert loser["sub_code"] == "vault-not-pending"
