"""The lists, filters and messages in the user's language: statuses in words, amounts with their currency's symbol,
method names as people call them; the CSV exports and the APIs keep the provider's words and plain amounts."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from babel import dates, numbers
from sqlalchemy import event, update

from checkout.db import db
from checkout.payins.models import Trade
from tests import builders

from .test_payment_detail import authorized, paid, pix, post
from .test_payouts import paid as paid_payout
from .test_payouts import submit
from .test_vaults import card_vault, pix_vault


def money(value: str, currency: str, locale: str) -> str:
    """An amount as Babel writes it in `locale` (the symbol and signs are CLDR's, never a literal here)."""
    return numbers.format_currency(Decimal(value), currency, locale=locale)


def payment_row(html: str, out_trade_no: str) -> list[str]:
    """The cells of the listed trade whose out_trade_no is `out_trade_no`, as the page writes them."""
    for row in re.findall(r'<tr class="payment-row">(.*?)</tr>', html, re.S):
        if f"<td><code>{out_trade_no}</code></td>" in row:
            return [cell.strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)][2:5]
    raise AssertionError(f"{out_trade_no} is not listed")


def payout_row(html: str, transaction_id: str) -> list[str]:
    row = re.search(rf'<tr class="payout-row" id="payout-{transaction_id}">(.*?)</tr>', html, re.S).group(1)
    return [cell.strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)][1:5]


def options(html: str, select_id: str) -> list[tuple[str, str]]:
    """(value, text) of each option of the select `select_id`."""
    select = re.search(rf'<select[^>]*id="{select_id}"[^>]*>(.*?)</select>', html, re.S).group(1)
    return re.findall(r'<option[^>]*value="([^"]*)"[^>]*>([^<]*)</option>', select)


def flash(html: str) -> str:
    return re.search(r'<p class="flash[^"]*"[^>]*>(.*?)</p>', html, re.S).group(1).strip()


# --- the payments list ------------------------------------------------------------------------------------------


@pytest.fixture
def trades(api):
    """A payment refunded in part, one refunded in full, one paid, one waiting for the customer's Boleto."""
    part = paid(api, "part", amount="150.00")
    api.post("/trade/refund", builders.refund(part, "50.00", out_request_no="r-part"), expect=200)
    whole = paid(api, "whole", amount="100.50")
    api.post("/trade/refund", builders.refund(whole, "100.50", out_request_no="r-whole"), expect=200)
    paid(api, "paid", amount="1943.17")
    pix(api, "boleto", amount="20.00", method="Boleto")
    return part


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "pt-BR",
            {
                "part": [
                    "Pix",
                    f"Reembolsado em parte: {money('50.00', 'BRL', 'pt_BR')} de {money('150.00', 'BRL', 'pt_BR')}",
                    f"{money('150.00', 'BRL', 'pt_BR')}",
                ],
                "whole": ["Pix", "Reembolsado", f"{money('100.50', 'BRL', 'pt_BR')}"],
                "paid": ["Pix", "Pago", f"{money('1943.17', 'BRL', 'pt_BR')}"],
                "boleto": ["Boleto", "Em processamento", f"{money('20.00', 'BRL', 'pt_BR')}"],
            },
        ),
        (
            "en",
            {
                "part": [
                    "Pix",
                    f"Refunded in part: {money('50.00', 'BRL', 'en')} of {money('150.00', 'BRL', 'en')}",
                    f"{money('150.00', 'BRL', 'en')}",
                ],
                "whole": ["Pix", "Refunded", f"{money('100.50', 'BRL', 'en')}"],
                "paid": ["Pix", "Paid", f"{money('1943.17', 'BRL', 'en')}"],
                "boleto": ["Boleto", "Processing", f"{money('20.00', 'BRL', 'en')}"],
            },
        ),
    ],
)
def test_the_payments_list_writes_statuses_amounts_and_methods_in_the_users_language(trades, alice, language, expected):
    html = alice.get(f"/dashboard/payments?language={language}").get_data(as_text=True)
    raw = {"part": "REFUNDED", "whole": "REFUNDED", "paid": "SUCCESS", "boleto": "PROCESSING"}
    for out_trade_no, (method, status, amount) in expected.items():
        assert payment_row(html, out_trade_no) == [
            method,
            f'<span class="status status-{raw[out_trade_no]}">{status}</span>',  # the style keyed on the API's word
            amount,
        ]


def test_the_payments_list_is_one_query_however_many_refunds(app, trades, api, alice):
    for n in range(3):  # more refunds of the same payment are summed, not listed
        api.post("/trade/refund", builders.refund(trades, "10.00", out_request_no=f"r-more-{n}"), expect=200)
    alice.get("/dashboard/payments")  # the session's user is loaded before the statements are counted
    statements: list[str] = []

    def statement(_conn, _cursor, sql, *_args):
        statements.append(" ".join(sql.split()).lower())

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", statement)
        try:
            html = alice.get("/dashboard/payments?language=pt-BR").get_data(as_text=True)
        finally:
            event.remove(db.engine, "before_cursor_execute", statement)
    reading = [sql for sql in statements if "from trades" in sql or "from refunds" in sql]
    assert len(reading) == 1 and "from refunds" in reading[0]
    assert payment_row(html, "part")[1] == (
        f'<span class="status status-REFUNDED">Reembolsado em parte: {money("80.00", "BRL", "pt_BR")} de {money("150.00", "BRL", "pt_BR")}</span>'
    )


def test_the_payments_filters_name_statuses_and_methods_in_words_and_keep_the_apis_values(api, alice):
    paid(api, "paid")
    html = alice.get("/dashboard/payments?language=pt-BR&status=SUCCESS&method=PIX").get_data(as_text=True)
    assert options(html, "filter-status") == [
        ("", "Qualquer situação"),
        ("INITIAL", "Aguardando o cliente"),
        ("PROCESSING", "Em processamento"),
        ("AUTHORIZED", "Autorizado"),
        ("REFUSED", "Recusado"),
        ("SUCCESS", "Pago"),
        ("EXPIRED", "Expirado"),
        ("CANCEL", "Cancelado"),
        ("REFUNDED", "Reembolsado"),
    ]
    methods = dict(options(html, "filter-method"))
    assert methods["PIX"] == "Pix" and methods["CreditCard"] == "Cartão" and methods["Boleto"] == "Boleto"
    assert re.search(r'<option selected value="SUCCESS">Pago</option>', html)
    assert re.search(r'<option selected value="PIX">Pix</option>', html)
    assert payment_row(html, "paid")[1] == '<span class="status status-SUCCESS">Pago</span>'


def test_the_export_keeps_the_providers_words_and_plain_amounts_in_any_language(trades, alice):
    text = alice.get("/dashboard/payments/export?language=pt-BR&q=part").get_data(as_text=True)
    assert text.splitlines()[1].startswith(f"{trades},part,PIX,REFUNDED,150.00,BRL,")


# --- a payment's messages -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "voided", "paid_now", "captured", "refused"),
    [
        (
            "pt-BR",
            "A autorização foi cancelada. Pagamento: Cancelado.",
            "O cliente pagou. Pagamento: Pago.",
            f"Capturado: {money('90.00', 'BRL', 'pt_BR')}. Pagamento: Pago.",
            "Esta ação não é permitida enquanto o pagamento está nesta situação: Pago.",
        ),
        (
            "en",
            "The authorization was voided. Payment: Canceled.",
            "The customer paid. Payment: Paid.",
            f"Captured {money('90.00', 'BRL', 'en')}. Payment: Paid.",
            "This action is not allowed while the payment is in this status: Paid.",
        ),
    ],
)
def test_a_payments_messages_name_its_status_in_words(api, alice, language, voided, paid_now, captured, refused):
    def act(trade_no: str, name: str, **data):
        html = alice.get(f"/dashboard/payments/{trade_no}?language={language}").get_data(as_text=True)
        token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
        answer = post(
            alice, f"/dashboard/payments/{trade_no}/{name}?language={language}", {"csrf_token": token, **data}
        )
        if answer.status_code != 302:
            return answer.get_data(as_text=True)
        return alice.get(answer.headers["Location"]).get_data(as_text=True)

    assert flash(act(authorized(api, "pre-void"), "void")) == voided
    to_pay = pix(api, "to-pay")
    assert flash(act(to_pay, "pay")) == paid_now
    # Paid: the customer cannot pay it again, and the refusal names the status in words.
    assert f'id="pay-error" role="alert">{refused} <code>trade-status-invalid</code>' in act(to_pay, "pay")
    assert flash(act(authorized(api, "pre-capture"), "capture", amount="90.00")) == captured


def test_the_void_explains_the_status_it_leads_to_in_words(api, alice):
    trade_no = authorized(api)
    html = alice.get(f"/dashboard/payments/{trade_no}?language=pt-BR").get_data(as_text=True)
    assert "Libera toda a autorização; o pagamento passa a Cancelado." in html


# --- payouts ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "pt-BR",
            ["PIX", "Em processamento", f"{money('101.38', 'USD', 'pt_BR')}", f"{money('537.30', 'BRL', 'pt_BR')}"],
        ),
        ("en", ["PIX", "Processing", f"{money('101.38', 'USD', 'en')}", f"{money('537.30', 'BRL', 'en')}"]),
    ],
)
def test_the_payouts_list_writes_statuses_and_amounts_in_the_users_language(
    payout_api, fund, alice, language, expected
):
    fund(payout_api.credentials, "USD", "1000.00")
    tid = submit(payout_api, "po-1")
    html = alice.get(f"/dashboard/payouts?language={language}").get_data(as_text=True)
    method, status, sent, arriving = expected
    assert payout_row(html, tid) == [
        method,
        f'<span class="status status-IN_PROCESSING">{status}</span>',
        sent,
        arriving,
    ]


def test_the_payouts_status_filter_in_words_with_the_apis_values(alice):
    html = alice.get("/dashboard/payouts?language=pt-BR&status=PARTIAL_REFUNDED").get_data(as_text=True)
    assert options(html, "payout-filter-status") == [
        ("", "Todos"),
        ("IN_PROCESSING", "Em processamento"),
        ("PROCESSING", "Em processamento no banco"),
        ("PAID", "Pago"),
        ("REJECTED", "Rejeitado pelo banco"),
        ("REFUNDED", "Devolvido pelo banco"),
        ("PARTIAL_REFUNDED", "Devolvido em parte pelo banco"),
    ]
    assert '<option selected value="PARTIAL_REFUNDED">Devolvido em parte pelo banco</option>' in html


def test_a_payouts_page_and_its_refund_message_in_portuguese(api, payout_api, fund, alice):
    tid = paid_payout(api, payout_api, fund)  # 537.30 BRL arrived
    page = f"/dashboard/payouts/{tid}?language=pt-BR"
    html = alice.get(page).get_data(as_text=True)
    assert 'id="payout-status">Pago</span> <span class="muted">(<code>PAID</code>)' in html
    answer = alice.submit(f"/dashboard/payouts/{tid}/refund?language=pt-BR", {"amount": "100.01"}, form_at=page)
    assert answer.status_code == 302
    html = alice.get(answer.headers["Location"]).get_data(as_text=True)
    assert re.fullmatch(
        "O banco do favorecido devolveu " + re.escape(money("100.01", "BRL", "pt_BR")) + r" \(D\w+\)\. "
        r"Repasse: Devolvido em parte pelo banco\.",
        flash(html),
    )
    assert 'id="payout-status">Devolvido em parte pelo banco</span>' in html
    assert (
        f"Devolvido {money('100.01', 'BRL', 'pt_BR')} de {money('537.30', 'BRL', 'pt_BR')}; restam {money('437.29', 'BRL', 'pt_BR')}"
        in html
    )
    timeline = re.search(r'<table id="payout-timeline">(.*?)</table>', html, re.S).group(1)
    assert '<span class="status status-IN_PROCESSING">Em processamento</span>' in timeline
    assert f'<td class="num">{money("100.01", "BRL", "pt_BR")}</td>' in timeline
    refunds = re.search(r'<table id="payout-refunds">(.*?)</table>', html, re.S).group(1)
    assert f'<td class="num">{money("100.01", "BRL", "pt_BR")}</td>' in refunds
    # The API's figures stay as POST /api/payout/detail answers them.
    assert 'id="payout-arrival-amount">537.30 BRL<' in html
    exported = alice.get("/dashboard/payouts/export?language=pt-BR").get_data(as_text=True)
    assert f"{tid},po-1,PIX,PARTIAL_REFUNDED," in exported


# --- vaults ----------------------------------------------------------------------------------------------------


def test_the_vaults_list_and_filters_in_portuguese(api, alice):
    plan = pix_vault(api)
    card = card_vault(api)
    api.post(f"/sandbox/vaults/{card}/approve", expect=200)
    html = alice.get("/dashboard/vaults?language=pt-BR").get_data(as_text=True)
    row = re.search(rf'<tr class="vault-row" id="vault-{plan}">(.*?)</tr>', html, re.S).group(1)
    assert '<span class="status status-PENDING">Aguardando aprovação</span>' in row
    assert f"de {money('10.00', 'BRL', 'pt_BR')} a {money('200.00', 'BRL', 'pt_BR')}" in row
    row = re.search(rf'<tr class="vault-row" id="vault-{card}">(.*?)</tr>', html, re.S).group(1)
    assert '<span class="status status-ACTIVE">Ativo</span>' in row
    assert options(html, "vault-filter-type") == [("", "Todos"), ("Card", "Cartão"), ("pix", "Pix Automático")]
    assert options(html, "vault-filter-status") == [
        ("", "Todos"),
        ("PENDING", "Aguardando aprovação"),
        ("ACTIVE", "Ativo"),
        ("DECLINED", "Recusado"),
        ("VOIDED", "Anulado"),
        ("EXPIRED", "Expirado"),
    ]


def test_a_vaults_page_its_charges_and_its_message_in_portuguese(api, alice, work):
    token = card_vault(api)
    page = f"/dashboard/vaults/{token}?language=pt-BR"
    answer = alice.submit(f"/dashboard/vaults/{token}/approve?language=pt-BR", {}, form_at=page)
    html = alice.get(answer.headers["Location"]).get_data(as_text=True)
    assert flash(html) == "Nova situação: Ativo."
    assert 'id="vault-status">Ativo</span> <span class="muted">(<code>ACTIVE</code>)' in html
    history = re.search(r'<ul class="records-timeline" id="vault-history">(.*?)</ul>', html, re.S).group(1)
    assert '<span class="status status-PENDING">Aguardando aprovação</span> · criado</li>' in history
    assert '<span class="status status-ACTIVE">Ativo</span></li>' in history
    trade_no = api.post("/trade/pay", builders.vault_pay(token), expect=200)["trade_no"]
    work()  # the worker charges the card
    html = alice.get(page).get_data(as_text=True)
    charge = re.search(rf'<tr id="charge-{trade_no}">(.*?)</tr>', html, re.S).group(1)
    assert '<span class="status status-SUCCESS">Pago</span>' in charge
    assert f'<td class="num">{money("49.90", "BRL", "pt_BR")}</td>' in charge
    payment = alice.get(f"/dashboard/payments/{trade_no}?language=pt-BR").get_data(as_text=True)
    assert f'id="trade-vault"><code>{token}</code> (Cartão, Ativo)<' in payment


# --- notification deliveries --------------------------------------------------------------------------------------


def test_the_deliveries_status_filter_in_words_with_the_outboxs_values(alice):
    html = alice.get("/dashboard/developers/deliveries?language=pt-BR&status=failed").get_data(as_text=True)
    assert options(html, "deliveries-status") == [
        ("", "Todos"),
        ("pending", "Pendente"),
        ("delivered", "Entregue"),
        ("failed", "Falhou"),
        ("skipped", "Não enviada"),
    ]
    assert '<option value="failed" selected>Falhou</option>' in html


# --- the overview and the dates ---------------------------------------------------------------------------------


def test_the_overviews_recent_payments_and_payouts_in_portuguese(trades, alice):
    html = alice.get("/dashboard?language=pt-BR").get_data(as_text=True)
    recent = re.search(r'<section aria-labelledby="trades-title">(.*?)</section>', html, re.S).group(1)
    part = next(row for row in re.findall(r"<tr>(.*?)</tr>", recent, re.S) if f">{trades}<" in row)
    cells = [cell.strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", part, re.S)]
    assert cells[1:4] == [
        "Pix",
        f'<span class="status status-REFUNDED">Reembolsado em parte: {money("50.00", "BRL", "pt_BR")} de {money("150.00", "BRL", "pt_BR")}</span>',
        f"{money('150.00', 'BRL', 'pt_BR')}",
    ]


@pytest.mark.parametrize("language, locale", [("pt-BR", "pt_BR"), ("es-MX", "es_MX"), ("en", "en")])
def test_dates_are_written_in_the_users_language_on_the_utc_clock(app, api, alice, language, locale):
    pix(api, "dated")
    instant = datetime(2026, 11, 20, 21, 5, tzinfo=UTC)
    with app.app_context():
        db.session.execute(update(Trade).where(Trade.out_trade_no == "dated").values(created_at=instant))
        db.session.commit()
    html = alice.get(f"/dashboard/payments?language={language}").get_data(as_text=True)
    written = re.search(r'<time datetime="2026-11-20T21:05:00(?:\+00:00)?">([^<]*)</time>', html).group(1)
    # The date as the language writes it (its month's name, its order), the time on a 24-hour clock.
    assert written == f"{dates.format_skeleton('yMMMd', instant, tzinfo=UTC, locale=locale)} 21:05"
    assert "2026-11-20" not in written and "PM" not in written and "p.m." not in written
