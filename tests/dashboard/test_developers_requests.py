"""Developers area: the API request log page (own requests only, newest first, filters, paging, bodies) and
the purge of old failed logins."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import delete, select

from checkout import clock
from checkout.api import requestlog
from checkout.dashboard import developers
from checkout.dashboard import jobs as dashboard_jobs
from checkout.dashboard.models import LoginAttempt
from checkout.db import db
from checkout.merchants.models import Merchant
from tests import builders


@pytest.fixture
def alice(alice, app):
    browser = alice
    page = browser.get

    def get(path: str, **kwargs):
        # The API's rows are written by the log's writer thread: wait for it, not for the page's short
        # flush, which a loaded machine can outlast.
        assert requestlog.of(app).flush()
        return page(path, **kwargs)

    browser.get = get
    return browser


def listed(html: str) -> list[tuple[str, str]]:
    """(path, status) of each row, in order."""
    return re.findall(
        r'<tr id="request-\d+" class="request">.*?<code>([^<]+)</code>.*?class="status[^"]*">(\d+)<', html, re.S
    )


def test_own_requests_newest_first_with_their_redacted_bodies(alice, api, other_api):
    api.post("/card/token", builders.card("4111111111111111"), expect=200)
    api.post("/trade/query", {"trade_no": "nope"}, expect=400)
    other_api.post("/trade/query", {"trade_no": "theirs-only"}, expect=400)
    html = alice.get("/dashboard/developers/requests").get_data(as_text=True)
    assert listed(html) == [("/trade/query", "400"), ("/card/token", "200")]
    assert "theirs-only" not in html and other_api.app_id not in html
    assert "411111******1111" in html and "4111111111111111" not in html
    assert "&#34;cvv&#34;: &#34;***&#34;" in html
    assert '<details id="request-' in html and "trade-not-exist" in html
    assert 'aria-current="page">API request log<' in html


def test_filters_by_path_prefix_and_status_class(alice, api):
    api.post("/card/token", builders.card(), expect=200)
    api.post("/trade/query", {"trade_no": "nope"}, expect=400)
    api.get("/sandbox/clock")
    get = alice.get
    assert listed(get("/dashboard/developers/requests?path=/trade/").get_data(as_text=True)) == [
        ("/trade/query", "400")
    ]
    assert listed(get("/dashboard/developers/requests?status=2xx").get_data(as_text=True)) == [
        ("/sandbox/clock", "200"),
        ("/card/token", "200"),
    ]
    assert listed(get("/dashboard/developers/requests?status=4xx&path=/card").get_data(as_text=True)) == []
    assert listed(get("/dashboard/developers/requests?path=%25").get_data(as_text=True)) == []  # no wildcards
    for query in ("status=3xx", "before=x"):
        answer = get(f"/dashboard/developers/requests?{query}")
        assert answer.status_code == 400 and 'id="bad-filter"' in answer.get_data(as_text=True)


def test_pages_to_older_requests(alice, api, monkeypatch):
    monkeypatch.setattr(developers, "PAGE", 2)
    for n in range(3):
        api.post("/trade/query", {"trade_no": f"n-{n}"}, expect=400)
    first = alice.get("/dashboard/developers/requests").get_data(as_text=True)
    assert "n-2" in first and "n-1" in first and "n-0" not in first
    older = re.search(r'id="requests-older" href="([^"]+)"', first).group(1).replace("&amp;", "&")
    second = alice.get(older).get_data(as_text=True)
    assert "n-0" in second and "n-1" not in second and 'id="requests-older"' not in second


def test_old_failed_logins_are_purged(app, monkeypatch):
    now = clock.real_now()
    with app.app_context():
        db.session.add_all(
            [
                LoginAttempt(email="old@shop.example", address="198.51.100.1", at=now - timedelta(days=1, minutes=1)),
                LoginAttempt(email="new@shop.example", address="198.51.100.1", at=now - timedelta(hours=23)),
            ]
        )
        db.session.commit()
        monkeypatch.setattr(dashboard_jobs, "_last", [float("-inf")])
        assert dashboard_jobs.purge_login_attempts(db.session, app.config) == 0
        db.session.commit()
        assert list(db.session.scalars(select(LoginAttempt.email))) == ["new@shop.example"]


def test_a_row_kept_before_the_link_and_card_rules_is_shown_with_them(app, alice, api):
    """Rows written before a hosted page's token was redacted, or a card grouped by dots masked, keep them in
    the database until they are purged (7 days): the page applies the rules again when it shows them."""
    with app.app_context():
        merchant_id = db.session.scalar(select(Merchant.id).where(Merchant.app_id == api.app_id))
        db.session.add(
            requestlog.ApiRequest(
                merchant_id=merchant_id,
                at=clock.real_now(),
                method="POST",
                path="/api/payout/checkout",
                status=200,
                duration_ms=3,
                request_body='{"additional_remark":"4111.1111.1111.1111"}',
                response_body='{"code":200,"data":{"checkout_url":"http://checkout.test/pages/payout?token='
                'eyJzIjoiY3MifQ.Zx"}}',
            )
        )
        db.session.commit()
    html = alice.get("/dashboard/developers/requests").get_data(as_text=True)
    assert listed(html) == [("/api/payout/checkout", "200")]
    assert "eyJzIjoiY3MifQ" not in html and "4111.1111" not in html
    assert "http://checkout.test/pages/payout?token=[redacted]" in html
    assert "&#34;additional_remark&#34;: &#34;411111******1111&#34;" in html
    with app.app_context():  # the row stands for one kept before: no card data left for the suite's scan
        db.session.execute(delete(requestlog.ApiRequest))
        db.session.commit()
