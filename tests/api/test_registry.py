"""Every reason the code base refuses with is in the error registry, and every entry answers well."""

from __future__ import annotations

import re
from pathlib import Path

from checkout import errors
from checkout.api import registry

PACKAGE = Path(registry.__file__).resolve().parents[1]
LITERAL = re.compile(r"""\breason=["']([^"']+)["']""")


def _raised() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for key in LITERAL.findall(path.read_text(encoding="utf-8")):
            found.setdefault(key, []).append(str(path.relative_to(PACKAGE.parent)))
    return found


def test_every_reason_raised_is_registered():
    raised = _raised()
    assert raised, "the walk found no reason literals"
    unknown = {key: where for key, where in raised.items() if key not in registry.BY_KEY}
    assert not unknown, f"reasons missing from checkout/api/registry.py: {unknown}"


def test_every_registry_entry_answers_well():
    assert len(registry.BY_KEY) == len(registry.REASONS), "keys are unique"
    for reason in registry.REASONS:
        assert re.fullmatch(r"[a-z][a-z_-]*[a-z]", reason.key), reason.key
        assert issubclass(reason.kind, errors.DomainError) and reason.meaning
        assert reason.payin is not None or reason.payout is not None, f"{reason.key} is answered by no envelope"
        if reason.payin is not None:
            assert reason.payin.code in registry.PAYIN_MESSAGES and reason.payin.code != "10000", reason.key
            assert 400 <= reason.payin.status <= 599, reason.key
            assert reason.payin.sub_code is None or reason.payin.sub_code in registry.BY_KEY, reason.key
        if reason.payout is not None:
            assert reason.payout.code != 200 and reason.payout.msg, reason.key
            assert reason.payout.status in (400, 401, 500), reason.key
            assert reason.payout.data in ("err", "error", "data", "empty"), reason.key


def test_answers_follow_the_registry():
    error = errors.NotFound("trade does not exist", reason="trade-not-exist")
    assert registry.payin_answer(error) == (
        {"code": "40002", "msg": "Business Failed", "sub_code": "trade-not-exist", "sub_msg": "trade does not exist"},
        400,
    )
    missing = errors.MissingField("custom_code or payout_id", reason="payout-reference-missing")
    assert registry.payin_answer(missing)[0]["sub_code"] == "missing-arguments"
    assert registry.payout_answer(missing)[:2] == (400, "invalid parameters")
