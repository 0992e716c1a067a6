"""Beneficiary account checks per payout method, by region; corridors names which check each corridor runs."""

from .andes import bank_transfer_colombia, bank_transfer_ecuador, bank_transfer_peru, cashout, tpaga, transfiya
from .brazil import PIX_KEY_TYPES, bank_transfer_brazil, pix, pix_key, qrcode
from .common import PHONE, Beneficiary, collect, each, named, required
from .eurasia import bank_transfer_turkey, papara, qiwi
from .north import bank_transfer_guatemala, bank_transfer_panama, cash, spei
from .south import bank_transfer_argentina, bank_transfer_chile, bank_transfer_uruguay, mercadopago, vita
from .wallets import pagsmile, wallet

__all__ = [
    "PHONE",
    "PIX_KEY_TYPES",
    "Beneficiary",
    "bank_transfer_argentina",
    "bank_transfer_brazil",
    "bank_transfer_chile",
    "bank_transfer_colombia",
    "bank_transfer_ecuador",
    "bank_transfer_guatemala",
    "bank_transfer_panama",
    "bank_transfer_peru",
    "bank_transfer_turkey",
    "bank_transfer_uruguay",
    "cash",
    "cashout",
    "collect",
    "each",
    "mercadopago",
    "named",
    "pagsmile",
    "papara",
    "pix",
    "pix_key",
    "qiwi",
    "qrcode",
    "required",
    "spei",
    "tpaga",
    "transfiya",
    "vita",
    "wallet",
]
