"""Errors under /dashboard answer a dashboard page with the dashboard's headers, never the API's JSON."""

from __future__ import annotations

from .helpers import add_user


def test_an_unknown_dashboard_path_answers_a_translated_page(client):
    answer = client.get("/dashboard/nowhere?language=pt-BR")
    assert answer.status_code == 404
    assert answer.content_type == "text/html; charset=utf-8"
    html = answer.get_data(as_text=True)
    assert "<h1>Página não encontrada</h1>" in html and '"code"' not in html
    assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]


def test_a_refused_action_answers_a_page(app, api, make_browser):
    add_user(app, api.credentials, "a@shop.example")
    alice = make_browser()
    alice.log_in("a@shop.example")
    answer = alice.client.post(
        "/dashboard/developers/deliveries/nope/resend", environ_base={"REMOTE_ADDR": alice.address}
    )
    assert answer.status_code == 400 and answer.content_type == "text/html; charset=utf-8"
    assert "<h1>This request was not accepted</h1>" in answer.get_data(as_text=True)
    wrong_method = alice.get("/dashboard/logout")
    assert wrong_method.status_code == 405 and "<h1>This request was not accepted</h1>" in wrong_method.get_data(
        as_text=True
    )


def test_each_notification_links_to_the_page_of_what_it_is_about():
    from checkout.dashboard.developers import subject_page
    from checkout.notifications.models import OutboxMessage

    def page(kind, subject, payload=None):
        return subject_page(OutboxMessage(kind=kind, subject_id=subject, payload=payload or {}))

    assert page("payin.callback", "T1") == ("dashboard.payments.detail", {"trade_no": "T1"})
    assert page("refund.email", "R1", {"trade_no": "T2"}) == ("dashboard.payments.detail", {"trade_no": "T2"})
    assert page("vault.callback", "V1") == ("dashboard.vaults.detail", {"token": "V1"})
    assert page("payout.notification", "P1") == ("dashboard.payouts.detail", {"transaction_id": "P1"})
    assert page("refund.email", "R1") is None
