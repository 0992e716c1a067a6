"""What a feature's scheduled work looks like to the worker: a job does what is due now and says how much."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.orm import Session

# A job takes the session and the app's configuration, does what is due now on the sandbox clock and
# answers how many steps it took (0: nothing was due). The worker commits after each job.
Job = Callable[[Session, Mapping[str, Any]], int]
