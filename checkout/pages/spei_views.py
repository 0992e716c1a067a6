"""Sandbox page: a customer's bank transfer to its virtual SPEI account (the CLABE pasted, an amount)."""

from __future__ import annotations

import hashlib
import hmac
import re
from decimal import Decimal

from flask import Blueprint, current_app, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import StringField
from wtforms.validators import DataRequired, Length, ValidationError

from .. import clock, money
from ..db import db
from ..errors import DomainError, NotFound
from ..merchants.models import Merchant
from ..mexico import clabe
from ..virtualspei import service as virtualspei
from ..virtualspei import transfers
from ..virtualspei.models import VirtualAccount
from .common import Page, PageError, check_post, open_page, read_token, render
from .forms import REQUIRED, PageForm
from .i18n import format_currency

bp = Blueprint("spei", __name__)

# What people type between digit groups of a CLABE (a bank app shows it as 646 180 1234567890 1).
_SEPARATORS = re.compile(r"[\s.\-]+")
# Pesos and centavos, with a point or the comma some banks' apps use; no thousands separators.
_AMOUNT = re.compile(r"^[0-9]{1,8}([.,][0-9]{1,2})?$")
TEMPLATE = "pages/spei/transfer.html"
_KEY = re.compile(r"SBX[0-9]{24}")


def _digits(text: str | None) -> str:
    return _SEPARATORS.sub("", text or "")


class ClabeDigits:
    """18 digits with a right check digit, whatever the spaces between their groups."""

    def __call__(self, form, field):
        digits = _digits(field.data)
        if not (len(digits) == 18 and digits.isascii() and digits.isdigit()):
            raise ValidationError(_("A CLABE has 18 digits."))
        try:
            clabe.validate(digits)
        except ValueError:
            raise ValidationError(_("This is not a valid CLABE: check its digits.")) from None


class PesoAmount:
    def __call__(self, form, field):
        text = (field.data or "").strip()
        if not _AMOUNT.match(text) or Decimal(text.replace(",", ".")) <= 0:
            raise ValidationError(_("Enter an amount in pesos, such as 123.45."))


class TransferForm(PageForm):
    """What the customer gives its bank's app: the CLABE it was handed, and how much to send."""

    clabe = StringField(
        _l("CLABE to transfer to"),
        validators=[DataRequired(REQUIRED), Length(max=40), ClabeDigits()],
        render_kw={"autocomplete": "off", "inputmode": "numeric", "spellcheck": "false"},
    )
    amount = StringField(
        _l("Amount (MXN)"),
        validators=[DataRequired(REQUIRED), Length(max=16), PesoAmount()],
        render_kw={"autocomplete": "off", "inputmode": "decimal"},
    )

    @property
    def account_number(self) -> str:
        return _digits(self.clabe.data)

    @property
    def value(self) -> Decimal:
        return Decimal((self.amount.data or "").strip().replace(",", "."))


def _transfer_page() -> tuple[Page, VirtualAccount]:
    """The page, and the one account its link was handed out for (cancelled since, maybe: the page says so)."""
    if not current_app.config["SANDBOX"]:
        raise PageError(404, "not-found")
    token, payload = read_token(virtualspei.TRANSFER_PAGE, virtualspei.TRANSFER_PAGE_TTL, lambda p: p.get("merchant"))
    account_id = payload.get("account")
    if not isinstance(account_id, str):
        raise PageError(400, "invalid")  # a link that names no account pays none
    merchant = db.session.get(Merchant, payload.get("merchant", 0))
    if merchant is None:
        raise PageError(404, "not-found")
    try:
        account = virtualspei.find(db.session, merchant, account_id)
    except NotFound:
        raise PageError(404, "not-found") from None
    return open_page(token, merchant, "MEX"), account


def _signed(page: Page, key: str) -> str:
    secret = current_app.config["SECRET_KEY"].encode()
    mac = hmac.new(secret, f"spei-transfer-key:{page.token}:{key}".encode(), hashlib.sha256).hexdigest()[:32]
    return f"{key}.{mac}"


def _fresh_key(page: Page) -> str:
    """The tracking key the next transfer from this form goes under, chosen when the form is shown (as a
    bank's app does before sending), signed to the page's link so that no client picks its own."""
    return _signed(page, transfers.new_tracking_key(clock.now()))


def _posted_key(page: Page) -> str:
    """The form's tracking key, if this page's link signed it: posting the same form again names the same
    key, and the transfer is not sent twice."""
    sent = request.form.get("transfer", "")
    key = sent.partition(".")[0]
    if not (_KEY.fullmatch(key) and hmac.compare_digest(sent.encode("utf-8", "replace"), _signed(page, key).encode())):
        raise PageError(403, "forbidden")
    return key


@bp.get("/spei/transfer")
def show():
    page, _account = _transfer_page()
    return render(TEMPLATE, page, form=TransferForm(formdata=None), transfer_key=_fresh_key(page))


@bp.post("/spei/transfer")
def submit():
    """The transfer reaches the link's CLABE: a paid trade for the merchant, its notification queued. Any other
    CLABE (another customer's, another merchant's, none at all) gets one refusal that tells nothing of it and
    reads nothing about it; the link's CLABE once cancelled is refused as such. The same form posted again (a
    reload of the receipt) shows the transfer it sent and sends nothing."""
    page, own = _transfer_page()
    check_post(page)
    key = _posted_key(page)
    form = TransferForm()
    if not form.validate():
        return render(TEMPLATE, page, 422, form=form, transfer_key=_signed(page, key))
    if not hmac.compare_digest(form.account_number.encode(), own.account_number.encode()):
        form.clabe.errors = [
            _("This page only transfers to the CLABE %(merchant)s gave you.", merchant=page.merchant.name)
        ]
        return render(TEMPLATE, page, 422, form=form, transfer_key=_signed(page, key))
    try:
        trade, account = transfers.receive(db.session, page.merchant, own.account_number, form.value, key=key)
    except DomainError as error:
        db.session.rollback()
        form.clabe.errors = [_refusal(error.reason)]
        return render(TEMPLATE, page, 422, form=form, transfer_key=_signed(page, key))
    db.session.commit()
    amount = format_currency(money.from_minor(trade.amount_minor, trade.currency), trade.currency)
    return render(
        TEMPLATE,
        page,
        form=TransferForm(formdata=None),
        transfer_key=_fresh_key(page),
        sent={
            "amount": amount,
            "clabe": account.account_number,
            "beneficiary": account.beneficiary_name,
            "tracking_key": trade.out_trade_no,
        },
        data={"status": "SUCCESS"},
    )


def _refusal(reason: str) -> str:
    if reason == "account-not-active":
        return _("This CLABE was cancelled: it takes no more transfers.")
    return _("This transfer could not be made.")
