"""Hostile input on dashboard pages: a page answers, never a 500, and nothing is written."""

from __future__ import annotations

import pytest

from .helpers import PASSWORD


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/dashboard/vaults?q=%00", 400),
        ("/dashboard/payouts?q=%00", 400),
        ("/dashboard/developers/requests?path=/trade%00", 400),
        ("/dashboard/vaults/%00", 404),
        ("/dashboard/payouts/a%00b", 404),
        ("/dashboard/developers/deliveries/%00", 404),
        ("/dashboard/payouts?last_day=9999-12-31", 200),
        ("/dashboard/developers/requests?before=%C2%B2", 400),
        ("/dashboard/developers/deliveries?before=%E2%91%A0", 400),
        ("/dashboard/developers/deliveries?before=99999999999", 400),
        ("/dashboard/developers/deliveries?before=2147483648", 400),
    ],
)
def test_odd_queries_answer_a_page(alice, path, status):
    answer = alice.get(path)
    assert answer.status_code == status
    assert answer.content_type == "text/html; charset=utf-8"


def test_cursors_beyond_the_id_columns_are_refused_on_the_page(alice):
    import base64

    for listing in ("vaults", "payouts"):
        cursor = base64.urlsafe_b64encode(b"20261125000000000000.999999999999999999").decode().rstrip("=")
        answer = alice.get(f"/dashboard/{listing}?before={cursor}")
        assert answer.status_code == 400, listing


@pytest.mark.parametrize(
    ("path", "data", "form_at"),
    [
        (
            "/dashboard/settings/hosts",
            {"return_hosts": "shop.example\x00", "frame_origins": "", "password": PASSWORD},
            "/dashboard/settings",
        ),
        ("/dashboard/developers/signature", {"body": '{"a": "\x00"}', "signature": "\x00"}, None),
    ],
)
def test_a_nul_in_a_form_field_is_refused_and_writes_nothing(alice, row_counts, path, data, form_at):
    before = row_counts()
    answer = alice.submit(path, data, form_at=form_at)
    assert answer.status_code in (400, 200) and answer.content_type == "text/html; charset=utf-8"
    assert row_counts() == before


def test_a_body_too_large_answers_the_dashboards_413_page_when_signed_in(alice):
    answer = alice.client.post(
        "/dashboard/developers/signature",
        data={"body": "x" * (2 * 1024 * 1024)},
        environ_base={"REMOTE_ADDR": alice.address},
    )
    assert answer.status_code == 413
    assert "<h1>This request is too large</h1>" in answer.get_data(as_text=True)


def test_a_nul_in_the_password_again_is_a_wrong_password(alice):
    answer = alice.submit("/dashboard/developers/keys/reveal", {"password": "x\x00"}, form_at="/dashboard/developers")
    assert answer.status_code == 400 and "This is not your password." in answer.get_data(as_text=True)
