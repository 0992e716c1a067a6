"""The outcome of one delivery attempt, whatever transport made it (HTTP or e-mail)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass
class Result:
    succeeded: bool
    status_code: int | None = None
    response: str | None = None
    error: str | None = None
    duration_ms: int = 0
    started_at: datetime | None = None  # business time the attempt began
    final: bool = False  # no point retrying (an address we refuse to reach)
    skipped: bool = False  # nothing to send it with (e-mail without SMTP)
