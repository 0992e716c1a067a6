"""Imports every feature's tables, so that Base.metadata (and Alembic) sees the whole schema."""

from .api.requestlog import ApiRequest  # noqa: F401
from .cards.models import CardToken  # noqa: F401
from .dashboard.models import LoginAttempt, User  # noqa: F401
from .merchants.models import Merchant  # noqa: F401
from .notifications.models import DeliveryAttempt, InboxMessage, OutboxMessage  # noqa: F401
from .payins.models import Refund, Trade, TradeEvent  # noqa: F401
from .payouts.ledger import LedgerEntry  # noqa: F401
from .payouts.models import CheckoutSession, CustomCode, Payout, PayoutRefund  # noqa: F401
from .sandbox.models import MerchantClock, SandboxClock  # noqa: F401
from .vaults.models import Vault  # noqa: F401
from .virtualspei.models import VirtualAccount, VirtualTransfer  # noqa: F401
