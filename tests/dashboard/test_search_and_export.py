"""Searching the payments and payouts lists (e-mail, document, amount, an id's start) and exporting them as CSV."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from checkout.dashboard import search_forms
from checkout.db import db
from checkout.payouts.models import Payout
from tests import builders

from .test_payments import rows, set_created
from .test_payouts import listed, submit

NOON = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def pay(api, out_trade_no: str, email: str = "ana@example.com", document: str = builders.CPF, **overrides) -> str:
    body = builders.direct(
        "PIX", out_trade_no, customer={"email": email, "identify": {"number": document, "type": "CPF"}}, **overrides
    )
    return api.post("/trade/pay", body, expect=200)["trade_no"]


def found(browser, query: str) -> list[str]:
    answer = browser.get(f"/dashboard/payments?{query}")
    assert answer.status_code == 200
    return rows(answer.get_data(as_text=True))


@pytest.fixture
def shop(app, api, other_api):
    """Three trades of the merchant, one minute apart (newest last), and one of another merchant that matches
    every search."""
    numbers = {
        "ord-1": pay(api, "ord-1", "Ana@Example.com", "39053344705", order_amount="50.00"),
        "ord-2": pay(api, "ord-2", "bia@example.com", "11144477735", order_amount="50.01"),
        "ord-30": pay(api, "ord-30", "ana@example.com", "39053344705", order_amount="1234.56"),
    }
    pay(other_api, "ord-1", "ana@example.com", "39053344705", order_amount="50.00")
    for minute, name in enumerate(numbers):
        set_created(app, NOON + timedelta(minutes=minute), name)
    return numbers


def test_payments_by_customer_email_in_any_case(shop, alice):
    assert found(alice, "email=ANA@example.com") == ["ord-30", "ord-1"]
    assert found(alice, "email=+bia@example.com+") == ["ord-2"]
    assert found(alice, "email=ana@example") == []


def test_payments_by_customer_document_exactly(shop, alice):
    assert found(alice, "document=39053344705") == ["ord-30", "ord-1"]
    assert found(alice, "document=11144477735") == ["ord-2"]
    assert found(alice, "document=111.444.777-35") == ["ord-2"]
    assert found(alice, "document=3905334470") == []


@pytest.mark.parametrize(
    ("language", "typed", "expected"),
    [
        ("pt-BR", "50,00", ["ord-1"]),
        ("pt-BR", "50", ["ord-1"]),
        ("pt-BR", "1.234,56", ["ord-30"]),
        ("pt-BR", "50.01", ["ord-2"]),  # as the API writes it
        ("en", "50.00", ["ord-1"]),
        ("en", "1,234.56", ["ord-30"]),
        ("es-MX", "50.01", ["ord-2"]),
        ("en", "50.001", []),
    ],
)
def test_payments_by_exact_amount_in_the_users_language(shop, alice, language, typed, expected):
    assert found(alice, f"language={language}&amount={typed}") == expected


def test_an_amount_the_language_does_not_write_is_refused_at_its_field(shop, alice):
    answer = alice.get("/dashboard/payments?language=en&amount=50,00")
    html = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert '<p class="error" id="filter-amount-error">Enter an amount such as 50.00.</p>' in html
    answer = alice.get("/dashboard/payments?language=pt-BR&amount=abc")
    assert answer.status_code == 400
    assert '<p class="error" id="filter-amount-error">' in answer.get_data(as_text=True)


def test_payments_by_the_start_of_either_number(shop, alice):
    assert found(alice, "q=ord-3") == ["ord-30"]
    assert found(alice, "q=ord-") == ["ord-30", "ord-2", "ord-1"]
    assert found(alice, f"q={shop['ord-2'][:-2]}") == ["ord-2"]
    assert found(alice, "q=ord-4") == []


def test_searches_combine_and_an_empty_result_says_so(shop, alice):
    assert found(alice, "email=ana@example.com&amount=50") == ["ord-1"]
    html = alice.get("/dashboard/payments?email=nobody@example.com").get_data(as_text=True)
    assert rows(html) == [] and "No payments match these filters." in html


def test_a_search_keeps_its_keyset_pages(app, api, alice):
    for n in range(53):
        pay(api, f"p-{n:02d}", "many@example.com")
    pay(api, "other", "few@example.com")
    set_created(app, NOON, *[f"p-{n:02d}" for n in range(53)])
    first = alice.get("/dashboard/payments?email=many@example.com").get_data(as_text=True)
    assert len(rows(first)) == 50
    link = first.split('id="page-older" rel="next" href="')[1].split('"')[0].replace("&amp;", "&")
    assert "email=many@example.com" in link
    second = rows(alice.get(link).get_data(as_text=True))
    assert sorted(rows(first) + second) == [f"p-{n:02d}" for n in range(53)]


def test_parse_amount_reads_each_locale_exactly():
    assert str(search_forms.parse_amount("50,00", "pt_BR")) == "50.00"
    assert str(search_forms.parse_amount("1.234,56", "pt_BR")) == "1234.56"
    assert str(search_forms.parse_amount("1,234.56", "en")) == "1234.56"
    assert search_forms.parse_amount("50,00", "en") is None
    assert search_forms.parse_amount("-5", "en") is None
    assert search_forms.parse_amount("NaN", "en") is None


# --- export ---------------------------------------------------------------------------------------


def test_the_payments_export_is_the_filtered_list_byte_for_byte(shop, alice):
    answer = alice.get("/dashboard/payments/export?email=ana@example.com")
    text = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert answer.mimetype == "text/csv"
    assert answer.headers["Content-Disposition"].startswith('attachment; filename="payments-')
    assert text == (
        "trade_no,out_trade_no,method,status,amount,currency,customer_email,customer_document,created_at\r\n"
        f"{shop['ord-30']},ord-30,PIX,PROCESSING,1234.56,BRL,ana@example.com,39053344705,2026-11-20T12:02:00Z\r\n"
        f"{shop['ord-1']},ord-1,PIX,PROCESSING,50.00,BRL,Ana@Example.com,39053344705,2026-11-20T12:00:00Z\r\n"
    )


def test_an_export_of_nothing_is_its_header(shop, alice):
    answer = alice.get("/dashboard/payments/export?email=nobody@example.com")
    assert answer.get_data(as_text=True) == (
        "trade_no,out_trade_no,method,status,amount,currency,customer_email,customer_document,created_at\r\n"
    )


def test_the_export_reads_every_row_by_batches_and_only_the_merchants(app, api, other_api, alice, monkeypatch):
    from checkout.dashboard import exports

    monkeypatch.setattr(exports, "BATCH", 2)
    for n in range(5):
        pay(api, f"b-{n}")
    pay(other_api, "theirs")
    set_created(app, NOON, *[f"b-{n}" for n in range(5)])
    lines = alice.get("/dashboard/payments/export").get_data(as_text=True).splitlines()
    assert [line.split(",")[1] for line in lines[1:]] == ["b-4", "b-3", "b-2", "b-1", "b-0"]
    assert "theirs" not in "".join(lines)


def test_cells_a_spreadsheet_would_run_are_quoted(app, api, alice):
    pay(api, "=HYPERLINK(1)", "+1@example.com")
    pay(api, "@sum", "-x@example.com")
    pay(api, "-2+3", "ok@example.com")
    text = alice.get("/dashboard/payments/export").get_data(as_text=True)
    body = [line.split(",")[1:7:5] for line in text.splitlines()[1:]]
    assert sorted(body) == sorted(
        [["'=HYPERLINK(1)", "'+1@example.com"], ["'@sum", "'-x@example.com"], ["'-2+3", "ok@example.com"]]
    )


def test_a_bad_filter_on_export_answers_the_list_with_its_error(shop, alice):
    answer = alice.get("/dashboard/payments/export?status=PAID")
    assert answer.status_code == 400
    assert "Choose a status from the list." in answer.get_data(as_text=True)


def test_the_export_needs_a_login(visitor):
    assert visitor.get("/dashboard/payments/export").status_code == 302
    assert visitor.get("/dashboard/payouts/export").status_code == 302


# --- payouts --------------------------------------------------------------------------------------


@pytest.fixture
def payees(app, payout_api, other_payout_api, fund):
    fund(payout_api.credentials, "USD", "1000.00")
    fund(other_payout_api.credentials, "USD", "1000.00")
    made = {
        "ana": submit(payout_api, "pay-ana", name="Ana Souza", amount="10.00"),
        "bruno": submit(
            payout_api, "pay-bruno", name="Bruno Lima", document_id="11144477735", account="11144477735", amount="20.00"
        ),
    }
    submit(other_payout_api, "pay-ana", name="Ana Souza", amount="10.00")
    with app.app_context():
        for minute, tid in enumerate(made.values()):
            db.session.execute(
                update(Payout).where(Payout.transaction_id == tid).values(created_at=NOON + timedelta(minutes=minute))
            )
        db.session.commit()
    return made


def payouts_found(browser, query: str) -> list[str]:
    answer = browser.get(f"/dashboard/payouts?{query}")
    assert answer.status_code == 200
    return listed(answer.get_data(as_text=True))


def test_payouts_by_payee_name_start_document_amount_and_id_start(payees, alice):
    ana, bruno = payees["ana"], payees["bruno"]
    assert payouts_found(alice, "payee=ana") == [ana]
    assert payouts_found(alice, "payee=BRUNO+L") == [bruno]
    assert payouts_found(alice, "payee=11144477735") == [bruno]
    assert payouts_found(alice, "payee=111.444.777-35") == [bruno]
    assert payouts_found(alice, "payee=Souza") == []
    assert payouts_found(alice, "amount=20.00") == [bruno]
    assert payouts_found(alice, "language=pt-BR&amount=10,00") == [ana]
    assert payouts_found(alice, "q=pay-") == [bruno, ana]
    assert payouts_found(alice, f"q={ana[:-3]}") == [ana]
    assert payouts_found(alice, "q=zzz") == []


def test_the_payouts_export_byte_for_byte(payees, alice):
    # 20.00 USD asked for, 20.68 USD leaving with the merchant's fee, 107.46 BRL arriving at the sandbox rate.
    answer = alice.get("/dashboard/payouts/export?payee=bruno")
    assert answer.status_code == 200
    assert answer.get_data(as_text=True) == (
        "transaction_id,custom_code,method,status,source_amount,source_currency,arrival_amount,arrival_currency,"
        "payee_name,created_at\r\n"
        f"{payees['bruno']},pay-bruno,PIX,IN_PROCESSING,20.68,USD,107.46,BRL,Bruno Lima,2026-11-20T12:01:00Z\r\n"
    )


def test_the_payouts_export_is_the_merchants_own(payees, alice):
    lines = alice.get("/dashboard/payouts/export?q=pay-ana").get_data(as_text=True).splitlines()
    assert [line.split(",")[0] for line in lines[1:]] == [payees["ana"]]
