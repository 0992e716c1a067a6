"""Redaction of the API request log's bodies: fields by name, keys, what no database stores, the cut, old rows."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from checkout.api import redaction, scrub
from tests.strategies import PROPERTY


def test_a_card_field_in_full_width_digits_is_masked_not_emptied():
    sent = {"card": {"card_no": "\uff14" + "\uff11" * 15}}
    assert json.loads(redaction.redacted_body(json.dumps(sent))) == {"card": {"card_no": "411111******1111"}}


def test_keys_are_texts_like_any_other():
    sent = {"4111.1111.1111.1111": 1, "https://x/pages/pay?token=XYZ": 2, "card": 3}
    assert json.loads(redaction.redacted_body(json.dumps(sent))) == {
        "411111******1111": 1,
        "https://x/pages/pay?token=[redacted]": "[redacted]",  # a name with `token` in it: a secret's
        "card": 3,
    }


def test_what_no_database_stores_becomes_the_replacement_character():
    assert redaction.redacted_body('{"subject": "\\ud800 and \\u0000"}') == '{"subject":"\ufffd and \\u0000"}'
    assert redaction.redacted_body('{"subject": "\ud800"}') == '{"subject":"\ufffd"}'
    assert redaction.storable("/trade/\x00\udfff") == "/trade/\ufffd\ufffd"
    assert redaction.storable("/trade/\x00query") == "/trade/\ufffdquery"  # ASCII but for the NUL
    assert redaction.storable("/trade/query?é") == "/trade/query?é"


def test_numbers_are_written_as_they_came_and_a_body_without_any_as_it_was_redacted():
    assert redaction.redacted_body('{"a": 1.50, "b": [1e3, -0], "c": "1.50"}') == '{"a":1.50,"b":[1e3,-0],"c":"1.50"}'
    assert redaction.redacted_body('{"a": "x", "b": ["1.50"]}') == '{"a":"x","b":["1.50"]}'


def test_the_services_own_identifiers_are_kept_whole_and_a_card_number_beside_one_is_not():
    trade_no = "202611290927117274225829"
    assert scrub.scrub_text(trade_no) == trade_no
    assert scrub.scrub_text("app_" + "4111111111111111" + "0" * 12) == "app_" + "4111111111111111" + "0" * 12
    assert scrub.scrub_text(f"{trade_no}, 4111111111111111") == f"{trade_no}, 411111******1111"


def test_a_body_nested_too_deeply_to_redact_is_kept_as_its_length():
    sent = '{"a":' * 600 + "1" + "}" * 600
    assert redaction.redacted_body(sent) == f"[nested too deeply: {len(sent)} bytes, not kept]"


@pytest.mark.parametrize(
    "stored, shown",
    [
        (
            '{"code":200,"data":{"checkout_url":"http://checkout.test/pages/payout?token=XYZ"}}',
            '{"code":200,"data":{"checkout_url":"http://checkout.test/pages/payout?token=[redacted]"}}',
        ),
        ('{"remark":"4111.1111.1111.1111","n":12.50}', '{"remark":"411111******1111","n":12.50}'),
        # What the rules have seen is shown as it is.
        (
            '{"card_no":"411111******1111","cvv":"***","img":"data:image/png;base64,[1,232 characters, not kept]"}',
            '{"card_no":"411111******1111","cvv":"***","img":"data:image/png;base64,[1,232 characters, not kept]"}',
        ),
        # Cut at the size limit, no longer JSON: the rules run on the text.
        (
            '{"pay_url":"http://x/pages/pay?token=XYZ","n":"4111_1111_1111_1111…[truncated]',
            '{"pay_url":"http://x/pages/pay?token=[redacted]","n":"411111******1111…[truncated]',
        ),
        ("[not JSON: 12 bytes, not kept]", "[not JSON: 12 bytes, not kept]"),
    ],
)
def test_a_row_kept_before_the_rules_is_shown_with_them(stored, shown):
    assert redaction.shown(stored) == shown
    assert redaction.shown(shown) == shown


@pytest.mark.parametrize(
    "value, kept",
    [
        ("data:image/png;base64,iVBORw0KGgo=", "data:image/png;base64,[12 characters, not kept]"),
        ("data:;base64,QUJD", "data:;base64,[4 characters, not kept]"),
        ("data:text/plain;charset=utf-8;base64,", "data:text/plain;charset=utf-8;base64,[0 characters, not kept]"),
        # Not base64: text, whose card numbers are masked as anywhere else.
        ("data:text/plain,4111111111111111", "data:text/plain,411111******1111"),
        ("data: 4111 1111 1111 1111", "data: 411111******1111"),
    ],
)
def test_base64_in_a_data_uri_is_kept_as_its_length(value, kept):
    assert json.loads(redaction.redacted_body(json.dumps({"img": value, "note": [value]}))) == {
        "img": kept,
        "note": [kept],
    }


def test_a_body_that_is_not_json_is_kept_only_as_its_length():
    for raw in (
        b"card_no=4111-1111-1111-1111&cvv=123&app_key=secretvalue",
        b'{"card_no": "4111 1111 1111 1111", "cvv": "123",}',  # a trailing comma: not JSON
    ):
        assert redaction.redacted_body(raw) == f"[not JSON: {len(raw)} bytes, not kept]"


def test_card_numbers_are_masked_whatever_the_field_is_called():
    body = {
        "cardNo": "4111111111111111",
        "Card-Number": "5555 5555 5555 4444",
        "securityCode": "123",
        "cardCvc": "999",
        "subject": "paid with 4111-1111-1111-1111 by phone",
        "out_trade_no": "12345678901234",  # 14 digits failing the Luhn check: kept
        "amount": 4111111111111111,
    }
    kept = json.loads(redaction.redacted_body(json.dumps(body)))
    assert kept == {
        "cardNo": "411111******1111",
        "Card-Number": "555555******4444",
        "securityCode": "***",
        "cardCvc": "***",
        "subject": "paid with 411111******1111 by phone",
        "out_trade_no": "12345678901234",
        "amount": "411111******1111",
    }


_CARDS = ("4111111111111111", "5555 5555 5555 4444", "3782-822463-10005", "6011000990139424")
# Names with no rule of their own, under any parent (a secret word or a card field's name is redacted whole).
_FIELD_NAMES = (
    st.sampled_from(["subject", "remark", "trade_no", "name", "n", "description", "x"]) | st.text(max_size=6)
).filter(lambda name: redaction._field(name, "card")[1] is None)
_TEXTS = st.text(max_size=20) | st.from_regex(r"[0-9 -]{0,24}", fullmatch=True)


@PROPERTY
@given(
    st.recursive(
        st.builds(
            lambda before, card, after: f"{before}{card}{after}",
            st.sampled_from(["", "paid ", "x-"]),
            st.sampled_from(_CARDS),
            st.sampled_from(["", " ok", "."]),
        )
        | _TEXTS,
        lambda inner: st.dictionaries(_FIELD_NAMES, inner, max_size=5) | st.lists(inner, max_size=3),
        max_leaves=20,
    ).filter(lambda value: isinstance(value, dict))
)
def test_no_card_number_survives_in_any_field_however_deep(body):
    """Texts of any field, short or long, at any depth: a Luhn-valid run of 12 to 19 digits never reaches
    the log, and every other text is kept exactly (fields with no rule of their own take a shortcut)."""
    kept = json.loads(redaction.redacted_body(json.dumps(body)))

    def walk(sent, logged):
        if isinstance(sent, dict):
            assert list(logged) == list(sent)
            for key in sent:
                walk(sent[key], logged[key])
        elif isinstance(sent, list):
            assert len(logged) == len(sent)
            for item, got in zip(sent, logged, strict=True):
                walk(item, got)
        else:
            for run in scrub._DIGIT_RUN.finditer(logged):
                digits = scrub._digits(run.group(0))
                if len(digits) <= 19:
                    assert not scrub._luhn(digits), (sent, logged)
                else:  # longer runs are masked whole, but the service's own numbers
                    issued = [own.span() for own in scrub._ISSUED.finditer(logged)]
                    assert any(start <= run.start() and run.end() <= end for start, end in issued), (sent, logged)
            if not any(card in sent for card in _CARDS) and logged != sent:
                # Only a digit run, a data: URI's base64 or a secret parameter's value is ever changed.
                assert scrub._DIGIT_RUN.search(sent) or redaction._BASE64_DATA.match(sent) or "=" in sent, (
                    sent,
                    logged,
                )

    walk(body, kept)


def _cut_after_redacting_whole(text: str) -> str:
    """What a body was kept as when the whole of it was redacted first, then cut at MAX_BODY."""
    parsed = json.loads(text, parse_float=redaction._number, parse_int=redaction._number)
    written = json.dumps(redaction.redact(parsed), ensure_ascii=False, separators=(",", ":"))
    return redaction._bounded(redaction._MARKED.sub(lambda m: m.group(1), written))


_SCALARS = (
    st.text(max_size=300)
    | st.integers()
    | st.decimals(places=2, allow_nan=False, allow_infinity=False).map(float)
    | st.booleans()
    | st.none()
    | st.sampled_from(_CARDS)
)


@PROPERTY
@given(
    st.recursive(
        _SCALARS,
        lambda inner: st.dictionaries(st.text(max_size=12), inner, max_size=8) | st.lists(inner, max_size=40),
        max_leaves=400,
    )
)
def test_a_body_is_kept_as_if_all_of_it_were_redacted_then_cut(body):
    """Redaction stops once what it has written passes MAX_BODY: what is kept is the same, to the
    character, as redacting the whole body and cutting it. (A small MAX_BODY, so that most bodies are cut.)"""
    text = json.dumps(body, ensure_ascii=False)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(redaction, "MAX_BODY", 120)
        assert redaction.redacted_body(text) == _cut_after_redacting_whole(text)


@pytest.mark.parametrize(
    "body",
    [
        list(range(5000)),  # numbers write no quotes: each counts exactly its digits
        [None, True, False] * 2000,
        ["", "a", {}, []] * 2000,
        {f"k{n}": n / 4 for n in range(3000)},
        {"data": [{"n": n, "card": "4111111111111111", "cvv": "123", "token": "t" * n} for n in range(300)]},
    ],
)
def test_bodies_of_small_values_are_cut_where_they_were_before(body):
    text = json.dumps(body)
    assert len(text) > redaction.MAX_BODY
    kept = redaction.redacted_body(text)
    assert kept == _cut_after_redacting_whole(text)
    assert len(kept) == redaction.MAX_BODY


def test_a_long_answer_is_cut_where_it_was_before():
    # A year of balance history: 365 records, about 70 KB, cut to MAX_BODY.
    records = [
        {
            "merchant_id": "M0001",
            "current_day": f"2026-01-{day % 28 + 1:02d}",
            "balance": [{"currency": c, "amount": f"{1000 + day}.50"} for c in ("BRL", "MXN", "USD")],
        }
        for day in range(365)
    ]
    text = json.dumps({"code": 200, "msg": "success", "time": 1764136800, "data": records})
    kept = redaction.redacted_body(text)
    assert kept == _cut_after_redacting_whole(text)
    assert len(kept) == redaction.MAX_BODY and kept.endswith(redaction.TRUNCATED)
