"""How the app is wired: the services create_app builds once (the acquirer and the payout bank its configuration
names, card tokenization), and how routes, pages and jobs get those of the app they run in."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask, current_app

from . import providers
from .cards.service import Tokenizer
from .providers import Acquirer, PayoutBank

KEY = "checkout.services"


@dataclass(frozen=True)
class Services:
    """One app's services. Domain functions never look them up: a route, a page or a job passes each the
    one it needs."""

    acquirer: Acquirer
    payout_bank: PayoutBank
    tokenizer: Tokenizer


def init_app(app: Flask) -> None:
    """Build the app's services from its configuration; an unknown ACQUIRER or PAYOUT_BANK stops the start
    (providers.UnknownProvider), not the first payment."""
    chosen = providers.build(app.config)
    tokenizer = Tokenizer(chosen.acquirer, app.config["SECRET_KEY"], int(app.config["CARD_TOKEN_TTL"]))
    app.extensions[KEY] = Services(chosen.acquirer, chosen.payout_bank, tokenizer)


def of(app: Flask) -> Services:
    return app.extensions[KEY]


def acquirer() -> Acquirer:
    """The current app's acquirer (in a request, or in the worker's app context)."""
    return of(current_app).acquirer


def payout_bank() -> PayoutBank:
    """The current app's payout bank (in a request, or in the worker's app context)."""
    return of(current_app).payout_bank


def tokenizer() -> Tokenizer:
    """The current app's card tokenization."""
    return of(current_app).tokenizer
