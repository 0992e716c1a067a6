"""The payout page's GET read on the driver: the same values as the entities it stands for, and a page served
from its kept copy without a SQLAlchemy statement."""

from datetime import datetime
from urllib.parse import parse_qs, urlsplit

import pytest

from checkout import links, signing
from checkout.db import db
from checkout.merchants import service as merchants
from checkout.merchants.models import Merchant
from checkout.pages import payout_read
from checkout.pages.common import TOKEN_GRACE
from checkout.pages.payout_views import session_and_merchant
from tests import builders


@pytest.fixture
def session_url(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    return payout_api.post("/checkout", builders.checkout_session(method=...), expect=200)["data"]["checkout_url"]


def session_of(app, url: str) -> str:
    token = parse_qs(urlsplit(url).query)["token"][0]
    return str(
        signing.read_page_token(app.config["SECRET_KEY"], links.PAYOUT_PAGE, token, 1800 + TOKEN_GRACE)["session"]
    )


def test_the_read_on_the_driver_is_the_entities_read(app, merchant, session_url, sql_statements):
    with app.app_context():
        row = db.session.query(Merchant).filter_by(app_id=merchant["app_id"]).one()
        row.logo_png, row.default_language = b"\x89PNG logo", "es"
        row.frame_origins = ["https://shop.example", "https://app.shop.example:8443"]
        db.session.commit()
    merchants.forget()
    session_id = session_of(app, session_url)
    with app.app_context():
        db.read_only(one_statement=True)
        sql_statements.clear()
        shown = payout_read.read(db.session, session_id)
        assert sql_statements == []  # on the driver, not through SQLAlchemy's execution
        assert payout_read.read(db.session, "no-such-session") is None
    with app.app_context():
        record, owner, holder = db.session.execute(session_and_merchant(False), {"session": session_id}).one()
        expected = payout_read.ShownSession.of(record, owner, holder)
    assert shown == expected
    assert (shown.status, shown.payout_id, shown.holder, shown.country) == ("OPEN", None, None, "BRA")
    assert shown.merchant.has_logo is True and shown.merchant.default_language == "es"
    assert shown.merchant.frame_origins == ("https://shop.example", "https://app.shop.example:8443")
    assert type(shown.expires_at) is type(expected.expires_at) is datetime
    assert shown.key("t", "web", "es_MX") == expected.key("t", "web", "es_MX")


def test_a_page_served_from_its_copy_runs_no_sqlalchemy_statement(customer, session_url, sql_statements):
    first = customer.get(session_url + "&language=en")
    assert first.status_code == 200 and len(sql_statements) == 1  # the entities' read to render (after the driver's)
    sql_statements.clear()
    again = customer.get(session_url + "&language=en")
    assert again.status_code == 200 and "Receive" in again.get_data(as_text=True)
    assert sql_statements == []
    other = customer.get(session_url + "&language=pt-BR")  # another copy: rendered from the entities
    assert other.status_code == 200 and "Receba" in other.get_data(as_text=True)
    assert len(sql_statements) == 1


def test_an_unknown_session_is_not_found(app, customer):
    token = links.Links(base_url="http://checkout.test", secret_key=app.config["SECRET_KEY"]).payout_page("cs_none")
    answer = customer.get(token)
    assert answer.status_code == 404 and "text/html" in answer.headers["Content-Type"]
