"""The sandbox SPEI transfer page against what a careless or hostile client sends: the same form posted again,
forged or borrowed tracking keys and links, odd amounts and CLABEs. Each is answered exactly, and whatever is
refused writes nothing."""

from __future__ import annotations

import re
import threading

import pytest
from sqlalchemy import func, select

from checkout import links, signing
from checkout.db import db
from checkout.merchants.models import Merchant
from checkout.mexico import clabe
from checkout.payins.models import Trade
from checkout.virtualspei.models import VirtualTransfer
from tests.pages.conftest import Customer, csrf_of, form_action
from tests.pages.helpers import ELSEWHERE, PATH, in_english, send_transfer, spaced, transfer_key
from tests.payins.helpers import THREADS
from tests.virtualspei.builders import open_account

WEEK = 7 * 24 * 3600


def _usage(api) -> list[dict]:
    return api.post("/virtual-account/spei/usage", {}, expect=200)["transfers"]


def _errors(response) -> list[str]:
    return re.findall(r'<p class="error"[^>]*>([^<]*)</p>', response.get_data(as_text=True))


def _tracking_key(response) -> str:
    return re.search(r'id="sent-tracking-key">([^<]+)<', response.get_data(as_text=True)).group(1)


def _post(customer, page, fields: dict, **kwargs):
    return customer.post(form_action(page, PATH), fields, page=page, **kwargs)


# --- the same form posted again ---------------------------------------------------------------------------


def test_posting_the_same_form_again_shows_its_receipt_and_sends_nothing(api, customer, row_counts, outbox):
    account = open_account(api)
    page = customer.get(in_english(account["transfer_url"]))
    first = send_transfer(customer, page, account["account_number"], "250,50")
    assert first.status_code == 200
    [paid] = _usage(api)
    assert (paid["amount"], paid["trade_status"], paid["out_trade_no"]) == ("250.50", "SUCCESS", _tracking_key(first))
    before = row_counts()
    again = send_transfer(customer, page, account["account_number"], "250,50")  # a reload of the receipt
    assert again.status_code == 200
    html = again.get_data(as_text=True)
    assert "Transfer sent" in html and "MX$250.50" in html
    assert _tracking_key(again) == paid["out_trade_no"]
    assert row_counts() == before
    assert _usage(api) == [paid]
    assert [kind for kind, _, _ in outbox(paid["trade_no"])] == ["payin.callback"]


def test_the_receipt_of_a_form_sent_before_its_account_was_cancelled_is_shown_again(api, customer, row_counts):
    account = open_account(api)
    page = customer.get(in_english(account["transfer_url"]))
    first = send_transfer(customer, page, account["account_number"], "10")
    api.post("/virtual-account/spei/cancel", {"account_id": account["account_id"]}, expect=200)
    before = row_counts()
    again = send_transfer(customer, page, account["account_number"], "10")
    assert again.status_code == 200 and _tracking_key(again) == _tracking_key(first)
    assert row_counts() == before


def test_the_receipts_form_and_a_refused_form_each_send_one_transfer(api, customer):
    account = open_account(api)
    page = customer.get(in_english(account["transfer_url"]))
    refused = send_transfer(customer, page, account["account_number"], "0")
    assert refused.status_code == 422 and _errors(refused) == ["Enter an amount in pesos, such as 123.45."]
    assert transfer_key(refused) == transfer_key(page)  # nothing was sent under it yet
    sent = send_transfer(customer, refused, account["account_number"], "1.5")
    assert sent.status_code == 200 and transfer_key(sent) != transfer_key(page)
    another = send_transfer(customer, sent, account["account_number"], "1.5")  # "Make another SPEI transfer"
    assert another.status_code == 200 and _tracking_key(another) != _tracking_key(sent)
    assert [t["amount"] for t in _usage(api)] == ["1.50", "1.50"]
    assert {t["out_trade_no"] for t in _usage(api)} == {_tracking_key(sent), _tracking_key(another)}


def test_the_same_form_posted_at_once_from_many_tabs_sends_one_transfer(app, api):
    account = open_account(api)
    page = Customer(app.test_client()).get(in_english(account["transfer_url"]))
    fields = {"clabe": account["account_number"], "amount": "7.77", "transfer": transfer_key(page)}
    barrier = threading.Barrier(THREADS)
    answers: list = [None] * THREADS

    def send(index: int) -> None:
        customer = Customer(app.test_client())
        barrier.wait()
        answers[index] = _post(customer, page, fields)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert [a.status_code for a in answers] == [200] * THREADS
    assert len({_tracking_key(a) for a in answers}) == 1
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Trade)) == 1
        assert db.session.scalar(select(func.count()).select_from(VirtualTransfer)) == 1
    assert [t["amount"] for t in _usage(api)] == ["7.77"]


# --- keys, links and forms that are not this page's --------------------------------------------------------


def test_a_tracking_key_the_page_did_not_sign_is_forbidden_and_writes_nothing(api, other_api, customer, row_counts):
    account = open_account(api)
    earlier = send_transfer(
        customer, customer.get(in_english(account["transfer_url"])), account["account_number"], "10"
    )
    page = customer.get(in_english(account["transfer_url"]))  # a fresh form: a key of its own
    theirs = customer.get(in_english(open_account(other_api)["transfer_url"]))
    neighbours = customer.get(in_english(open_account(api, "buyer-2")["transfer_url"]))
    key = transfer_key(page)
    chosen, mac = key.split(".")
    forged = [
        None,  # no key at all
        "",
        chosen,  # no signature
        f"{chosen}.{'0' * 32}",
        f"{_tracking_key(earlier)}.{mac}",  # an earlier transfer's key, to read its receipt
        f"SBX{'9' * 24}.{mac}",
        transfer_key(theirs),  # signed, but for another merchant's link
        transfer_key(neighbours),  # signed, but for another customer's link of the same merchant
        f"{key}\x00",
        f"{chosen}.{mac.upper()}",
    ]
    before = row_counts()
    for value in forged:
        fields = {"clabe": account["account_number"], "amount": "10"}
        if value is not None:
            fields["transfer"] = value
        response = _post(customer, page, fields)
        assert response.status_code == 403, value
        assert "Transfer sent" not in response.get_data(as_text=True)
    assert row_counts() == before


def test_another_link_cannot_post_with_this_pages_csrf(api, other_api, customer, row_counts):
    mine = open_account(api)
    page = customer.get(in_english(mine["transfer_url"]))
    theirs = customer.get(in_english(open_account(other_api)["transfer_url"]))
    neighbours = customer.get(in_english(open_account(api, "buyer-2")["transfer_url"]))
    before = row_counts()
    fields = {"clabe": mine["account_number"], "amount": "10", "transfer": transfer_key(page), "csrf": csrf_of(page)}
    assert customer.post(form_action(theirs, PATH), fields).status_code == 403
    assert customer.post(form_action(neighbours, PATH), fields).status_code == 403
    assert row_counts() == before


def test_a_link_signed_for_another_page_opens_no_transfer_page(app, api, merchant, customer):
    account_id = open_account(api)["account_id"]
    secret = app.config["SECRET_KEY"]
    with app.app_context():
        merchant_id = db.session.scalar(select(Merchant.id).where(Merchant.app_id == merchant["app_id"]))
    # The card entry page's link names its merchant just as this page's does: only the purpose differs.
    payload = {"merchant": merchant_id, "account": account_id}
    card_token = signing.page_token(secret, links.CARD_ENTRY_PAGE, payload)
    assert customer.get(f"{PATH}?token={card_token}").status_code == 400
    own = signing.page_token(secret, "spei-transfer", payload)
    assert customer.get(f"{PATH}?token={own}").status_code == 200
    assert customer.get(f"/pages/card?token={own}").status_code == 400


def test_the_link_lasts_seven_days_on_its_own_merchants_clock(api, other_api, customer):
    account = open_account(api)
    url = account["transfer_url"]
    other_api.post("/sandbox/clock", {"advance_seconds": WEEK + 60}, expect=200)  # another merchant's time
    assert customer.get(url).status_code == 200
    api.post("/sandbox/clock", {"advance_seconds": WEEK - 60}, expect=200)
    assert customer.get(url).status_code == 200
    api.post("/sandbox/clock", {"advance_seconds": 120}, expect=200)
    assert customer.get(url).status_code == 410
    assert "transfer_url" not in api.post("/virtual-account/spei/usage", {}, expect=200)  # query hands one out
    fresh = api.post("/virtual-account/spei/query", {"account_id": account["account_id"]}, expect=200)
    assert customer.get(fresh["transfer_url"]).status_code == 200


# --- amounts and CLABEs ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "arrived"),
    [
        ("99999999.99", "99999999.99"),  # SPEI's largest the page takes: eight digits of pesos
        ("0,01", "0.01"),
        ("00000000,50", "0.50"),
        (" 7 ", "7.00"),
        ("1234,5", "1234.50"),
    ],
)
def test_an_amount_arrives_to_the_cent(api, customer, typed, arrived):
    account = open_account(api)
    page = customer.get(in_english(account["transfer_url"]))
    assert send_transfer(customer, page, account["account_number"], typed).status_code == 200
    [paid] = _usage(api)
    assert (paid["amount"], paid["currency"]) == (arrived, "MXN")
    query = api.post("/trade/query", {"trade_no": paid["trade_no"]}, expect=200)
    assert query["trade_status"] == "SUCCESS"


@pytest.mark.parametrize(
    "typed",
    [
        "100000000",
        "123456789.00",
        "-5",
        "+5",
        "1e3",
        "0,00",
        "1.",
        ",5",
        "1 000",
        "١٢",
        "１２",
        "5.5.5",
        "NaN",
        "Infinity",
    ],
)
def test_an_odd_or_oversized_amount_is_refused_on_its_field(api, customer, row_counts, typed):
    account = open_account(api)
    page = customer.get(in_english(account["transfer_url"]))
    before = row_counts()
    refused = send_transfer(customer, page, account["account_number"], typed)
    assert refused.status_code == 422
    assert _errors(refused) == ["Enter an amount in pesos, such as 123.45."]
    assert row_counts() == before


def test_a_far_too_long_amount_is_refused_without_reading_it_as_a_number(api, customer, row_counts):
    account = open_account(api)
    page = customer.get(in_english(account["transfer_url"]))
    before = row_counts()
    refused = send_transfer(customer, page, account["account_number"], "9" * 5000)
    assert refused.status_code == 422
    assert _errors(refused) == ["Field cannot be longer than 16 characters. Enter an amount in pesos, such as 123.45."]
    assert row_counts() == before


@pytest.mark.parametrize("separator", [" ", "\u00a0", ".", "-", " - ", "\t"])
def test_a_clabe_copied_with_any_separators_is_the_same_clabe(api, customer, separator):
    account = open_account(api)
    number = account["account_number"]
    page = customer.get(in_english(account["transfer_url"]))
    typed = separator.join([number[:3], number[3:6], number[6:17], number[17]])
    sent = send_transfer(customer, page, f"  {typed}  ", "3")
    assert sent.status_code == 200, _errors(sent)
    assert [t["account_id"] for t in _usage(api)] == [account["account_id"]]


def test_a_clabe_in_other_digits_or_of_another_bank_is_refused(api, customer, row_counts):
    account = open_account(api)
    number = account["account_number"]
    page = customer.get(in_english(account["transfer_url"]))
    fullwidth = number.translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    bbva = clabe.build("012", "180", number[6:17])  # a valid CLABE, but not this link's account's
    bank_unknown = clabe.build("999", "180", number[6:17])
    before = row_counts()
    assert _errors(send_transfer(customer, page, fullwidth, "1")) == ["A CLABE has 18 digits."]
    assert _errors(send_transfer(customer, page, spaced(bank_unknown), "1")) == [
        "This is not a valid CLABE: check its digits."
    ]
    assert _errors(send_transfer(customer, page, bbva, "1")) == [ELSEWHERE]
    assert _errors(send_transfer(customer, page, number + "0", "1")) == ["A CLABE has 18 digits."]
    assert row_counts() == before
