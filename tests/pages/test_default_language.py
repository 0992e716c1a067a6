"""The merchant's default language (a dashboard setting): after the link's and the session's, before the browser's."""

from __future__ import annotations

import pytest

from checkout import clock
from checkout.db import db
from checkout.errors import InvalidField
from checkout.merchants import service as merchants
from tests import builders


def set_default(app, credentials: dict, language: str | None) -> None:
    with app.app_context():
        merchant = merchants.find_by_app_id(db.session, credentials["app_id"])
        merchants.set_default_language(merchant, language)
        db.session.commit()


@pytest.mark.parametrize(
    "default, headers, query, words",
    [
        ("es-MX", {"Accept-Language": "pt-BR"}, "", "Datos de la tarjeta"),  # the default before the browser
        ("pt-BR", {}, "", "Dados do cartão"),
        ("es-MX", {"Accept-Language": "pt-BR"}, "&language=en", "Card details"),  # the link names one
        (None, {"Accept-Language": "pt-BR"}, "", "Dados do cartão"),  # no default: the browser's
        ("en", {"Accept-Language": "es-MX"}, "", "Card details"),
    ],
)
def test_a_session_without_a_country(app, api, customer, default, headers, query, words):
    set_default(app, api.credentials, default)
    url = api.post("/card/session", {}, expect=200)["card_url"]
    assert words in customer.get(url + query, **headers).get_data(as_text=True)


def test_the_sessions_country_comes_before_the_default(app, api, customer):
    set_default(app, api.credentials, "es-MX")
    url = api.post("/vault/create", builders.pix_vault(clock.brazil_today()), expect=200)["checkout_url"]
    page = customer.get(url, **{"Accept-Language": "en"})
    assert 'lang="pt-BR"' in page.get_data(as_text=True)
    assert 'lang="en"' in customer.get(url + "&language=en").get_data(as_text=True)


def test_an_unknown_default_is_refused(app, api):
    with app.app_context():
        merchant = merchants.find_by_app_id(db.session, api.credentials["app_id"])
        with pytest.raises(InvalidField, match="default_language"):
            merchants.set_default_language(merchant, "de")
