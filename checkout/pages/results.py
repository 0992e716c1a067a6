"""What a result page says: its tone, the amount, a summary (method, destination, reference) and next steps."""

from __future__ import annotations

from flask_babel import gettext as _

from .. import money
from ..cards.models import CardToken
from ..payouts.models import Payout
from ..vaults import service as vaults
from ..vaults.models import Vault
from .i18n import cnpj, format_currency
from .payout_form import PIX_KEY_LABELS

OK, BAD = "ok", "bad"
# The payout statuses after which nothing more is on its way to the receiver.
PAYOUT_FAILED = {"REJECTED", "REFUNDED"}
# How long each method's money usually takes, once the payout is with the bank.
SLOW_METHODS = {"BANKTRANSFER"}


def card_line(card: CardToken) -> str:
    return f"{card.brand.upper()} •••• {card.last_four}"


def card_saved(card: CardToken, merchant: str) -> dict:
    return {
        "tone": OK,
        "summary": [
            (_("Method"), _("Card")),
            (_("Card"), card_line(card)),
            (_("Expires"), f"{card.exp_month:02d}/{card.exp_year}"),
            (_("Name on the card"), card.holder_name),
        ],
        "next_steps": [_("%(merchant)s receives a token for this card, never its number.", merchant=merchant)],
    }


def _interval(code: str | None) -> str:
    labels = {"1W": _("Weekly"), "1M": _("Monthly"), "3M": _("Quarterly"), "6M": _("Every six months")}
    return labels.get(code or "", _("Yearly"))


def vault_decided(vault: Vault, merchant: str, document: str | None) -> dict:
    """A card-on-file consent or a PIX Automático authorization, given or not."""
    active = vault.status == vaults.ACTIVE
    if vault.type == "Card" and vault.card is not None:
        summary = [(_("Method"), _("Card")), (_("Card"), card_line(vault.card))]
        steps = [
            _("%(merchant)s can now charge this card for what you agree with them.", merchant=merchant),
            _(
                "You can revoke this permission at any time by asking %(merchant)s to remove the card, or by "
                "contacting your card issuer.",
                merchant=merchant,
            ),
        ]
    else:
        receiver = f"{merchant} · {_('CNPJ')} {cnpj(document)}" if document else merchant
        summary = [
            (_("Method"), "Pix Automático"),
            (_("Receiver"), receiver),
            (_("Frequency"), _interval(vault.plan_interval)),
        ]
        if vault.plan_min_minor is not None and vault.plan_max_minor is not None:
            limits = _(
                "from %(minimum)s to %(maximum)s",
                minimum=format_currency(money.from_minor(vault.plan_min_minor, "BRL"), "BRL"),
                maximum=format_currency(money.from_minor(vault.plan_max_minor, "BRL"), "BRL"),
            )
            summary.append((_("Amount per debit"), limits))
        steps = [
            _("Each debit shows in your bank's app before it is made."),
            _(
                "You can cancel this authorization at any time in your bank's app, under Pix Automático. Debits "
                "already scheduled for the next day may still happen."
            ),
        ]
    summary.append((_("Reference"), vault.token))
    if not active:
        steps = [
            _("Nothing will be charged."),
            _("You can go back to %(merchant)s and start again whenever you like.", merchant=merchant),
        ]
    return {"tone": OK if active else BAD, "summary": summary, "next_steps": steps}


def _mask_key(key: str, key_type: str | None) -> str:
    """Enough of a PIX key to recognise it, never all of it."""
    kind = (key_type or "").upper()
    if kind == "EMAIL" and "@" in key:
        local, domain = key.split("@", 1)
        return f"{local[:1]}•••@{domain}"
    if kind == "CPF" and len(key) == 11:
        return f"***.{key[3:6]}.{key[6:9]}-**"
    if kind == "CNPJ" and len(key) == 14:
        return f"**.{key[2:5]}.{key[5:8]}/{key[8:12]}-**"
    return f"•••• {key[-4:]}"


def destination(payout: Payout) -> str:
    """Where the money goes, as the receiver recognises it: the key, account or CLABE, masked."""
    account = payout.account or ""
    if payout.method == "PIX":
        kind = PIX_KEY_LABELS.get((payout.account_type or "").upper(), payout.account_type or "")
        return f"{_('Pix key')} ({kind}): {_mask_key(account, payout.account_type)}"
    if payout.method == "SPEI":
        return f"CLABE •••• {account[-4:]}"
    if payout.method == "BANKTRANSFER":
        bank = payout.bank_name or payout.bank_code or ""
        return f"{bank} · {_('Account')} •••• {account[-4:]}"
    channel = (payout.channel or "").title()
    shown = _mask_key(account, "EMAIL" if "@" in account else None)
    return f"{channel} · {shown}" if channel else shown


def payout_made(payout: Payout, method_label: str, merchant: str) -> dict:
    failed = payout.status in PAYOUT_FAILED
    arrival = money.from_minor(payout.arrival_minor, payout.arrival_currency)
    if failed:
        steps = [
            _(
                "The receiving bank refused the transfer. Please check your details with %(merchant)s.",
                merchant=merchant,
            )
        ]
    elif payout.status == "PAID":
        steps = [_("The money has arrived in your account.")]
    else:
        steps = [
            _("The money usually arrives within one business day.")
            if payout.method in SLOW_METHODS
            else _("The money usually arrives in minutes."),
            _("If the receiving bank refuses it, %(merchant)s will let you know.", merchant=merchant),
        ]
    return {
        "tone": BAD if failed else OK,
        "amount": format_currency(arrival, payout.arrival_currency),
        "summary": [
            (_("Method"), method_label),
            (_("Sent to"), destination(payout)),
            (_("Receiver"), payout.name),
            (_("Reference"), payout.transaction_id),
        ],
        "next_steps": steps,
    }
