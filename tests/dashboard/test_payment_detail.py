"""A trade's page and its actions: what the merchant sees, what each button does through the API's services."""

from __future__ import annotations

import re

import pytest

from tests import builders
from tests.dashboard.helpers import csrf

# What differs between two trades' callbacks whatever path made them.
OWN = {"notify_id", "trade_no", "out_trade_no", "out_request_no", "refund_no", "timestamp"}


def same_notification(payload: dict) -> dict:
    return {key: value for key, value in payload.items() if key not in OWN}


def pix(api, out_trade_no: str = "order-1", amount: str = "100.50", method: str = "PIX") -> str:
    body = builders.direct(method, out_trade_no, order_amount=amount)
    return api.post("/trade/pay", body, expect=200)["trade_no"]


def paid(api, out_trade_no: str = "order-1", amount: str = "100.50", method: str = "PIX") -> str:
    trade_no = pix(api, out_trade_no, amount, method)
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    return trade_no


def authorized(api, out_trade_no: str = "pre-1", amount: str = "150.00") -> str:
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    body = builders.pre_authorization(token, out_trade_no, order_amount=amount)
    return api.post("/trade/pre-authorization", body, expect=200)["trade_no"]


def query(api, trade_no: str) -> dict:
    return api.post("/trade/query", {"trade_no": trade_no}, expect=200)


def history(api, trade_no: str) -> list[tuple]:
    """The trade's status history as /trade/query reports it, without the times."""
    return [(h["from_status"], h["trade_status"], h["reason"]) for h in query(api, trade_no)["status_history"]]


def refund_form(browser, trade_no: str) -> dict:
    html = browser.get(f"/dashboard/payments/{trade_no}").get_data(as_text=True)
    request_id = re.search(r'name="request_id" type="hidden" value="([0-9a-f]{16})"', html)
    if request_id is None:
        request_id = re.search(r'id="refund-request-id" name="request_id" type="hidden" value="([0-9a-f]{16})"', html)
    return {"csrf_token": csrf(html), "request_id": request_id.group(1)}


def post(browser, path: str, data: dict):
    return browser.client.post(path, data=data, environ_base={"REMOTE_ADDR": browser.address})


def refund(browser, trade_no: str, amount: str, reason: str = "", confirm: bool = True):
    """The refund form sent confirmed (its second step's box ticked), or not."""
    form = {**refund_form(browser, trade_no), "amount": amount, "reason": reason}
    return post(browser, f"/dashboard/payments/{trade_no}/refund", {**form, **({"confirm": "y"} if confirm else {})})


def action(browser, trade_no: str, name: str, **data):
    token = csrf(browser.get(f"/dashboard/payments/{trade_no}").get_data(as_text=True))
    return post(browser, f"/dashboard/payments/{trade_no}/{name}", {"csrf_token": token, **data})


def forms(html: str) -> set[str]:
    return set(re.findall(r'id="(refund|capture|void|pay)-form"', html))


# --- the page --------------------------------------------------------------------------------------


def test_the_page_shows_the_trade_its_history_refunds_and_notifications(app, api, alice):
    trade_no = paid(api)
    api.post("/trade/refund", builders.refund(trade_no, "0.50", out_request_no="r-api"), expect=200)
    answer = alice.get(f"/dashboard/payments/{trade_no}")
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert f'<code id="trade-no">{trade_no}</code>' in html
    assert 'id="trade-status">Refunded in part: R$0.50 of R$100.50<' in html
    assert "<code>REFUNDED</code>" in html  # the provider's status beside the words
    assert 'id="trade-amount">R$100.50<' in html
    assert 'id="trade-refunded">R$0.50<' in html and 'id="trade-refundable">R$100.00<' in html
    assert '<code id="trade-out-trade-no">order-1</code>' in html
    assert "Ana Souza" in html and "ana@example.com" in html and "CPF 39053344705" in html
    timeline = re.findall(r'<li class="timeline-event">.*?</li>', html, re.S)
    assert [re.findall(r'status-([A-Z]+)">', item)[-1] for item in timeline] == ["PROCESSING", "SUCCESS", "REFUNDED"]
    assert "paid by the customer" in timeline[1]
    [line] = re.findall(r'<tr class="refund-row">.*?</tr>', html, re.S)
    assert "<code>r-api</code>" in line and "R$0.50" in line and ">Refunded</span>" in line
    # Its notifications, through the shared partial, returning here after a resend.
    assert html.count('class="card delivery"') == 2
    assert f'name="back" value="/dashboard/payments/{trade_no}"' in html


def test_a_card_trade_shows_its_card(api, alice):
    trade_no = authorized(api)
    html = alice.get(f"/dashboard/payments/{trade_no}").get_data(as_text=True)
    assert re.search(r'id="trade-card">\w+ •••• 1111<', html)
    assert forms(html) == {"capture", "void"}


def test_a_vault_payment_shows_its_vault_and_card_and_offers_nothing_while_processing(api, alice):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    vault = api.post("/vault/create", builders.card_vault(token), expect=200)["token"]
    api.post(f"/sandbox/vaults/{vault}/approve", expect=200)
    trade_no = api.post("/trade/pay", builders.vault_pay(vault), expect=200)["trade_no"]
    html = alice.get(f"/dashboard/payments/{trade_no}").get_data(as_text=True)
    assert f'id="trade-vault"><code>{vault}</code> (Card, Active)<' in html
    assert re.search(r'id="trade-card">\w+ •••• 1111<', html)
    assert 'id="trade-amount">R$49.90<' in html
    assert forms(html) == set()  # the worker charges the card; nobody pays it by hand


def test_a_hosted_checkout_waiting_for_the_customer_offers_nothing(api, alice):
    from tests.payins.helpers import hosted

    trade_no = api.post("/trade/create", hosted(), expect=200)["trade_no"]
    answer = alice.get(f"/dashboard/payments/{trade_no}")
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and 'id="trade-status">Waiting for the customer<' in html
    assert forms(html) == set() and 'id="trade-actions"' not in html
    refused = action(alice, trade_no, "pay")
    assert refused.status_code == 400
    assert (
        "This action is not allowed while the payment is in this status: Waiting for the customer."
        in refused.get_data(as_text=True)
    )


def test_another_merchants_or_an_unknown_trade_is_a_404_page(app, api, other_api, alice):
    theirs = paid(other_api, "order-b")
    for path in (f"/dashboard/payments/{theirs}", "/dashboard/payments/nope"):
        answer = alice.get(path)
        html = answer.get_data(as_text=True)
        assert answer.status_code == 404 and "<h1>Payment not found</h1>" in html, path
        assert theirs not in html
    nul = alice.get("/dashboard/payments/x%00y")  # no name has a NUL: the dashboard's own 404 page
    assert nul.status_code == 404 and "<h1>Page not found</h1>" in nul.get_data(as_text=True)


@pytest.mark.parametrize("name", ["refund", "capture", "void", "pay"])
def test_every_action_on_another_merchants_trade_is_a_404_and_writes_nothing(
    app, api, other_api, alice, row_counts, name
):
    theirs = authorized(other_api) if name in ("capture", "void") else paid(other_api, "order-b")
    if name == "pay":
        theirs = pix(other_api, "order-c")
    mine = paid(api)
    form = refund_form(alice, mine)
    before = row_counts()
    answer = post(alice, f"/dashboard/payments/{theirs}/{name}", {**form, "amount": "1.00"})
    assert answer.status_code == 404 and "Payment not found" in answer.get_data(as_text=True)
    assert row_counts() == before
    assert query(other_api, theirs)["trade_status"] in ("SUCCESS", "AUTHORIZED", "PROCESSING")


@pytest.mark.parametrize("name", ["refund", "capture", "void", "pay"])
def test_every_action_needs_the_csrf_token(api, alice, row_counts, name):
    trade_no = authorized(api) if name in ("capture", "void") else (pix(api) if name == "pay" else paid(api))
    form = refund_form(alice, trade_no) if name == "refund" else {"request_id": "0123456789abcdef"}
    before = row_counts()
    answer = post(alice, f"/dashboard/payments/{trade_no}/{name}", {"request_id": form["request_id"], "amount": "1.00"})
    assert answer.status_code == 400 and "This request was not accepted" in answer.get_data(as_text=True)
    assert row_counts() == before


def test_the_page_needs_a_login(api, client):
    trade_no = paid(api)
    answer = client.get(f"/dashboard/payments/{trade_no}")
    assert answer.status_code == 302 and "/dashboard/login" in answer.headers["Location"]
    assert client.post(f"/dashboard/payments/{trade_no}/refund", data={"amount": "1.00"}).status_code == 302


# --- refunds ---------------------------------------------------------------------------------------


def test_a_partial_then_a_full_refund_to_the_cent(api, alice, outbox):
    trade_no = paid(api)
    answer = refund(alice, trade_no, "10.25", "damaged box")
    assert answer.status_code == 302 and answer.headers["Location"] == f"/dashboard/payments/{trade_no}"
    html = alice.get(answer.headers["Location"]).get_data(as_text=True)
    assert re.search(
        r"Refund [0-9a-f]{16} of R\$10.25: Refunded. Payment: Refunded in part: R\$10.25 of R\$100.50.", html
    )
    assert 'id="trade-refundable">R$90.25<' in html
    after = query(api, trade_no)
    assert (after["trade_status"], after["refunded_amount"], after["refundable_amount"]) == (
        "REFUNDED",
        "10.25",
        "90.25",
    )
    assert refund(alice, trade_no, "90.25").status_code == 302
    after = query(api, trade_no)
    assert (after["trade_status"], after["refunded_amount"], after["refundable_amount"]) == (
        "REFUNDED",
        "100.50",
        "0.00",
    )
    assert [r["refund_amount"] for r in after["refunds"]] == ["10.25", "90.25"]
    assert all(re.fullmatch(r"[0-9a-f]{16}", r["out_request_no"]) for r in after["refunds"])
    html = alice.get(f"/dashboard/payments/{trade_no}").get_data(as_text=True)
    assert "refund-form" not in html  # nothing left to refund
    assert "damaged box" in html
    assert [p["trade_status"] for _, _, p in outbox(trade_no)] == ["SUCCESS", "REFUNDED", "REFUNDED"]


def test_a_refund_writes_the_callback_the_api_writes(api, alice, outbox):
    by_api, by_page = paid(api, "order-1"), paid(api, "order-2")
    api.post("/trade/refund", builders.refund(by_api, "20.10", out_request_no="r1"), expect=200)
    assert refund(alice, by_page, "20.10").status_code == 302
    [*_, (kind_a, target_a, from_api)] = outbox(by_api)
    [*_, (kind_b, target_b, from_page)] = outbox(by_page)
    assert (kind_a, target_a) == (kind_b, target_b) == ("payin.callback", builders.NOTIFY)
    assert same_notification(from_page) == same_notification(from_api)
    assert from_page["refund_amount"] == "20.10" and from_page["refundable_amount"] == "80.40"
    assert from_page["out_request_no"] == query(api, by_page)["refunds"][0]["out_request_no"]
    assert history(api, by_page) == history(api, by_api)


def test_a_boleto_refund_asks_the_customer_for_bank_data_as_the_api_does(api, alice, outbox):
    trade_no = paid(api, method="Boleto")
    assert refund(alice, trade_no, "40.00").status_code == 302
    [line] = query(api, trade_no)["refunds"]
    assert line["refund_status"] == "PROCESSING"
    [(kind, target, payload)] = outbox(line["refund_no"])
    assert (kind, target, payload["template"], payload["refund_amount"]) == (
        "refund.email",
        "ana@example.com",
        "refund-bank-data",
        "40.00",
    )


def test_sending_the_same_refund_form_twice_refunds_once(api, alice, outbox):
    trade_no = paid(api)
    form = {**refund_form(alice, trade_no), "amount": "30.00", "confirm": "y"}
    first = post(alice, f"/dashboard/payments/{trade_no}/refund", form)
    second = post(alice, f"/dashboard/payments/{trade_no}/refund", form)
    assert first.status_code == second.status_code == 302
    after = query(api, trade_no)
    assert [r["refund_amount"] for r in after["refunds"]] == ["30.00"]
    assert after["refundable_amount"] == "70.50"
    assert [p["trade_status"] for _, _, p in outbox(trade_no)] == ["SUCCESS", "REFUNDED"]


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        ("100.51", "The amount is more than what can still be refunded: at most R$100.50."),
        ("1.001", "Enter an amount above zero with at most 2 decimal places in BRL."),
        ("0", "Enter an amount above zero with at most 2 decimal places in BRL."),
        ("10,50", "Enter an amount such as 50.00."),
        ("", "Enter the amount to refund."),
        ("-1", "Enter an amount such as 50.00."),
        ("1e3", "Enter an amount such as 50.00."),
    ],
)
def test_a_refund_the_api_refuses_answers_the_page_and_writes_nothing(api, alice, row_counts, amount, message):
    trade_no = paid(api)
    form = refund_form(alice, trade_no)
    before = row_counts()
    answer = post(alice, f"/dashboard/payments/{trade_no}/refund", {**form, "amount": amount, "confirm": "y"})
    html = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert message in html
    assert 'id="refund-form"' in html and f'value="{form["request_id"]}"' in html
    assert row_counts() == before


def test_a_refund_above_what_is_left_after_a_partial_one(api, alice, row_counts):
    trade_no = paid(api)
    assert refund(alice, trade_no, "100.00").status_code == 302
    before = row_counts()
    answer = refund(alice, trade_no, "0.51")
    assert answer.status_code == 400
    html = answer.get_data(as_text=True)
    assert 'id="refund-error" role="alert">The amount is more than what can still be refunded: at most R$0.50.' in html
    assert "refund-amount-exceeded" in html
    assert row_counts() == before


# --- authorizations ----------------------------------------------------------------------------------


def test_a_partial_capture_takes_that_amount_and_writes_the_apis_callback(api, alice, outbox):
    by_api, by_page = authorized(api, "pre-1"), authorized(api, "pre-2")
    api.post(
        "/trade/capture", {"version": "2.0", "amount": "90.00", "currency": "BRL", "out_trade_no": "pre-1"}, expect=200
    )
    answer = action(alice, by_page, "capture", amount="90.00")
    assert answer.status_code == 302
    html = alice.get(answer.headers["Location"]).get_data(as_text=True)
    assert "Captured R$90.00. Payment: Paid." in html
    assert forms(html) == {"refund"}
    after = query(api, by_page)
    assert (after["trade_status"], after["order_amount"], after["authorized_amount"]) == ("SUCCESS", "90.00", "150.00")
    assert [same_notification(p) for _, _, p in outbox(by_page)] == [same_notification(p) for _, _, p in outbox(by_api)]
    assert (
        history(api, by_page)
        == history(api, by_api)
        == [
            (None, "AUTHORIZED", None),
            ("AUTHORIZED", "SUCCESS", "captured 90.00 of 150.00"),
        ]
    )


def test_a_capture_without_an_amount_takes_all_of_it(api, alice):
    trade_no = authorized(api)
    assert action(alice, trade_no, "capture", amount="").status_code == 302
    assert (query(api, trade_no)["trade_status"], query(api, trade_no)["order_amount"]) == ("SUCCESS", "150.00")


def test_a_capture_above_the_authorization_is_refused_with_the_page(api, alice, row_counts):
    trade_no = authorized(api)
    before = row_counts()
    answer = action(alice, trade_no, "capture", amount="150.01")
    assert answer.status_code == 400
    assert "The amount is more than the authorized amount." in answer.get_data(as_text=True)
    assert row_counts() == before


def test_a_void_cancels_the_authorization_as_the_api_does(api, alice, outbox):
    by_api, by_page = authorized(api, "pre-1"), authorized(api, "pre-2")
    api.post("/trade/void", {"version": "2.0", "out_trade_no": "pre-1"}, expect=200)
    answer = action(alice, by_page, "void")
    assert answer.status_code == 302
    html = alice.get(answer.headers["Location"]).get_data(as_text=True)
    assert "The authorization was voided. Payment: Canceled." in html
    assert forms(html) == set()
    assert query(api, by_page)["trade_status"] == "CANCEL"
    assert [same_notification(p) for _, _, p in outbox(by_page)] == [same_notification(p) for _, _, p in outbox(by_api)]
    assert history(api, by_page) == history(api, by_api)
    assert history(api, by_page)[-1] == ("AUTHORIZED", "CANCEL", "voided by the merchant")


# --- the customer pays (sandbox) ---------------------------------------------------------------------


def test_the_customer_pays_as_the_sandbox_api_does(api, alice, outbox):
    by_api, by_page = pix(api, "order-1"), pix(api, "order-2")
    html = alice.get(f"/dashboard/payments/{by_page}").get_data(as_text=True)
    assert forms(html) == {"pay"}
    api.post(f"/sandbox/trades/{by_api}/pay", expect=200)
    answer = action(alice, by_page, "pay")
    assert answer.status_code == 302
    html = alice.get(answer.headers["Location"]).get_data(as_text=True)
    assert "The customer paid. Payment: Paid." in html
    assert forms(html) == {"refund"}
    assert query(api, by_page)["trade_status"] == "SUCCESS"
    assert [same_notification(p) for _, _, p in outbox(by_page)] == [same_notification(p) for _, _, p in outbox(by_api)]
    assert history(api, by_page) == history(api, by_api)
    assert history(api, by_page)[-1] == ("PROCESSING", "SUCCESS", "paid by the customer")


def test_the_customer_pays_is_neither_offered_nor_done_outside_the_sandbox(app, api, alice, row_counts, monkeypatch):
    trade_no = pix(api)
    monkeypatch.setitem(app.config, "SANDBOX", False)
    assert forms(alice.get(f"/dashboard/payments/{trade_no}").get_data(as_text=True)) == set()
    before = row_counts()
    token = csrf(alice.get(f"/dashboard/payments/{trade_no}").get_data(as_text=True))
    assert post(alice, f"/dashboard/payments/{trade_no}/pay", {"csrf_token": token}).status_code == 404
    assert row_counts() == before


# --- what a state does not allow ---------------------------------------------------------------------


def test_actions_a_state_does_not_allow_are_not_shown_and_refused_when_posted(api, alice, row_counts):
    waiting = pix(api, "order-1")
    done = paid(api, "order-2")
    card = api.post(
        "/trade/pay",
        builders.direct(
            "CreditCard",
            "order-3",
            token=api.post("/card/token", builders.card(), expect=200)["token"],
            fingerprint="fp",
            issuer="visa",
            user_ip="198.51.100.1",
        ),
        expect=200,
    )["trade_no"]
    assert forms(alice.get(f"/dashboard/payments/{waiting}").get_data(as_text=True)) == {"pay"}
    assert forms(alice.get(f"/dashboard/payments/{done}").get_data(as_text=True)) == {"refund"}
    assert forms(alice.get(f"/dashboard/payments/{card}").get_data(as_text=True)) == set()  # the acquirer decides
    before = row_counts()
    refused = [
        (waiting, "refund", "This action is not allowed while the payment is in this status: Processing."),
        (waiting, "capture", "This action is not allowed while the payment is in this status: Processing."),
        (waiting, "void", "This action is not allowed while the payment is in this status: Processing."),
        (done, "pay", "This action is not allowed while the payment is in this status: Paid."),
        (done, "void", "This action is not allowed while the payment is in this status: Paid."),
        (card, "pay", "This payment is not paid by the customer this way."),
    ]
    for trade_no, name, message in refused:
        data = refund_form(alice, done) if name == "refund" else {}
        answer = action(alice, trade_no, name, amount="1.00", **{k: v for k, v in data.items() if k != "csrf_token"})
        html = answer.get_data(as_text=True)
        assert answer.status_code == 400, (trade_no, name)
        assert f'id="{name}-error" role="alert">{message}' in html, (trade_no, name)
    assert row_counts() == before


@pytest.mark.parametrize(("language", "word"), [("pt-BR", "Reembolsar"), ("es-MX", "Reembolsar")])
def test_the_page_speaks_the_chosen_language(api, alice, language, word):
    trade_no = paid(api)
    html = alice.get(f"/dashboard/payments/{trade_no}?language={language}").get_data(as_text=True)
    assert word in html


# --- the refund's two steps, in the user's language ------------------------------------------------

NBSP = "\u00a0"


def refund_in(browser, trade_no: str, language: str, data: dict):
    html = browser.get(f"/dashboard/payments/{trade_no}?language={language}").get_data(as_text=True)
    request_id = re.search(r'id="refund-request-id" name="request_id" type="hidden" value="([0-9a-f]{16})"', html)
    form = {"csrf_token": csrf(html), "request_id": request_id.group(1), **data}
    return post(browser, f"/dashboard/payments/{trade_no}/refund?language={language}", form)


def test_the_refund_form_starts_empty(api, alice):
    html = alice.get(f"/dashboard/payments/{paid(api)}").get_data(as_text=True)
    assert re.search(r'<input[^>]*id="refund-amount"[^>]*>', html)
    assert 'value=""' in re.search(r'<input[^>]*id="refund-amount"[^>]*>', html).group(0)
    assert "Up to R$100.50, like 10.50." in html


@pytest.mark.parametrize(
    ("language", "typed", "confirmation", "button", "done"),
    [
        ("en", "50.00", "Refund R$50.00 to Ana Souza", "Confirm the refund", "50.00"),
        (
            "pt-BR",
            "50,00",
            f"Reembolsar R${NBSP}50,00 para Ana Souza",
            "Confirmar o reembolso",
            "50.00",
        ),
        ("pt-BR", "1.000,5", None, None, None),  # more than the payment: refused before any confirmation
    ],
)
def test_a_refund_asks_to_confirm_and_writes_nothing_until_confirmed(
    api, alice, row_counts, outbox, language, typed, confirmation, button, done
):
    trade_no = paid(api, amount="150.00")
    before = row_counts()
    first = refund_in(alice, trade_no, language, {"amount": typed, "reason": "damaged box"})
    html = first.get_data(as_text=True)
    assert row_counts() == before and query(api, trade_no)["refunds"] == []
    if confirmation is None:
        assert first.status_code == 400
        assert f"O valor é maior do que ainda pode ser reembolsado: no máximo R${NBSP}150,00." in html
        return
    assert first.status_code == 200
    assert f'<label for="refund-confirm">{confirmation}</label>' in html
    assert f'id="refund-submit">{button}</button>' in html
    assert re.search(rf'id="refund-amount"[^>]* type="hidden" value="{re.escape(typed)}"', html)
    assert 'id="refund-reason" maxlength="128" name="reason" type="hidden" value="damaged box"' in html
    # The same step sent again without the box ticked still writes nothing.
    again = refund_in(alice, trade_no, language, {"amount": typed, "reason": "damaged box"})
    assert again.status_code == 200 and row_counts() == before
    confirmed = refund_in(alice, trade_no, language, {"amount": typed, "reason": "damaged box", "confirm": "y"})
    assert confirmed.status_code == 302
    assert [r["refund_amount"] for r in query(api, trade_no)["refunds"]] == [done]
    page = alice.get(f"/dashboard/payments/{trade_no}?language={language}").get_data(as_text=True)
    partly = {
        "en": "Refunded in part: R$50.00 of R$150.00",
        "pt-BR": f"Reembolsado em parte: R${NBSP}50,00 de R${NBSP}150,00",
    }[language]
    assert f'id="trade-status">{partly}<' in page
    assert query(api, trade_no)["trade_status"] == "REFUNDED"  # the API keeps the provider's status


def test_the_page_writes_amounts_statuses_and_methods_in_portuguese(api, alice):
    trade_no = paid(api, amount="1943.17")
    html = alice.get(f"/dashboard/payments/{trade_no}?language=pt-BR").get_data(as_text=True)
    assert f'id="trade-amount">R${NBSP}1.943,17<' in html
    assert 'id="trade-status">Pago<' in html
    assert 'id="trade-status-text">Pago <span class="muted">· <code>SUCCESS</code></span>' in html
    assert 'id="trade-method">Pix <span class="muted">· <code>PIX</code></span>' in html
    timeline = re.findall(r'<li class="timeline-event">.*?</li>', html, re.S)
    assert ">Em processamento</span> → " in timeline[1] and ">Pago</span>" in timeline[1]
    assert f"Até R${NBSP}1.943,17, como 10,50." in html
