"""The provider's checkout link, `{base}/?prepay_id=...[&return_url=...]`: opens that order's hosted checkout."""

from __future__ import annotations

import re
from typing import cast
from urllib.parse import urlencode

from flask import current_app, make_response, redirect, request

from .. import links
from ..db import db
from ..errors import DomainError
from ..merchants.models import Merchant
from ..merchants.policy import check_return_url
from ..payins import checkout
from . import security
from .common import PageError, error_page, open_page
from .trades import country_of

# What a prepay_id can look like (ours are `pp_` and 24 hex digits); anything else is not looked up.
PREPAY_ID = re.compile(r"[A-Za-z0-9_=-]{1,64}")
# What the checkout page itself reads from its address, handed on to it.
PASSED_ON = ("return_url", "view", "language")


def open_checkout():
    """303 to the order's checkout page (the `web_url` of a WEB order), or an error page: 404 for a
    prepay_id that names no hosted checkout, 410 once it can no longer be paid, 400 for a refused
    `return_url`."""
    try:
        response = _open()
    except PageError as error:
        body, status = error_page(error)
        response = make_response(body, status)
    return security.apply_headers(response)


def _open():
    prepay_id = request.args.get("prepay_id", "")
    if not PREPAY_ID.fullmatch(prepay_id):
        raise PageError(404, "not-found")
    # Read only, each statement on its own, as every page shown by GET (pages.views).
    db.read_only(one_statement=True)
    trade = checkout.by_prepay_id(db.session, prepay_id)
    if trade is None:
        raise PageError(404, "not-found")
    merchant = cast(Merchant, db.session.get(Merchant, trade.merchant_id))
    # Its language, layout, frame origins and clock from here on, as on the checkout page itself.
    open_page("", merchant, country_of(trade))
    if checkout.expired(trade):
        raise PageError(410, "expired")
    given = request.args.get("return_url")
    if given:
        try:
            check_return_url(given, merchant, current_app.config["SANDBOX"])
        except DomainError:
            raise PageError(400, "invalid") from None
    extra = {name: request.args[name] for name in PASSED_ON if request.args.get(name)}
    url = links.current().checkout_page(trade.trade_no)
    return redirect(f"{url}&{urlencode(extra)}" if extra else url, 303)
