"""What the API request log keeps of a body: its JSON redacted field by field, written compactly, bounded."""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from .scrub import REDACTED, SECURITY_CODE_FIELDS, field_name, is_secret, mask_card_number, plain, scrub_text

MAX_BODY = 8 * 1024  # characters kept of each body, after redaction
TRUNCATED = "…[truncated]"
# Field names, compared lower-cased with `-`, spaces and camelCase humps read as `_`, and then also with
# every `_` left out (`cardNo`, `card-no` and `CARD_NO` are one name). `number` is a card number inside an
# object whose own name says card (`card.number`), nowhere else.
CARD_NUMBER_FIELDS = {
    "card_no",
    "card_number",
    "cardnumber",
    "cardno",
    "card_num",
    "cardnum",
    "pan",
    "card_pan",
    "cardpan",
}
# A field whose name says secret (scrub.SECRET_WORDS) is never stored: its value becomes "[redacted]".
_NUMBER = "\x00n:"  # marks a JSON number read as text, to be written back bare
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")  # refused by PostgreSQL's text, or by any UTF-8 encoder


@functools.lru_cache(maxsize=4096)
def _field(key: str, parent: str) -> tuple[str, str | None]:
    """A field's name as compared, and what its value becomes: "code" (a security code), "secret", "card"
    (a card number) or None (kept, but for the text rules). Field names repeat from one body to the next:
    working them out once made redaction about twice as fast."""
    name = field_name(key)
    if name in SECURITY_CODE_FIELDS or name.replace("_", "") in SECURITY_CODE_FIELDS:
        return name, "code"
    if is_secret(name):
        return name, "secret"
    if (
        name in CARD_NUMBER_FIELDS
        or name.replace("_", "") in CARD_NUMBER_FIELDS
        or (name == "number" and "card" in parent)
    ):
        return name, "card"
    return name, None


class _Budget:
    """How many more characters of a body's JSON are written before the cut at MAX_BODY. Each key and
    scalar is counted at most at the characters it writes, so the budget is spent no sooner than the text
    reaches the cut: what is left out after that is never kept."""

    __slots__ = ("left",)

    def __init__(self, left: int):
        self.left = left


def redact(value: Any, key: str = "", parent: str = "", budget: _Budget | None = None) -> Any:
    """A JSON value with what must never be kept replaced: card numbers masked (first 6 / last 4),
    security codes as "***", every key, secret, password, token or signature field as "[redacted]", and
    in any text a secret link parameter's value as "[redacted]".

    With a `budget`, the fields and items that would be written only after it is spent are left out: they
    lie past the cut, so a long answer (a year of balance history) costs only what is kept."""
    name, rule = _field(key, parent)
    if isinstance(value, dict):
        return _redact_object(value, name, budget)
    if isinstance(value, list):
        kept = []
        for item in value:
            if budget is not None and budget.left < 0:
                break
            kept.append(redact(item, key, parent, budget))
        return kept
    result = _redact_scalar(value, rule)
    if budget is not None:
        # A string writes its quotes too, a marked number loses its 3-character mark: at most this.
        budget.left -= len(str(result)) - len(_NUMBER)
    return result


def _redact_scalar(value: Any, rule: str | None) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if rule == "code":
        return "***"
    if rule == "secret":
        return REDACTED
    text = str(value).removeprefix(_NUMBER)
    if rule == "card":
        return mask_card_number(text)
    if isinstance(value, str):  # a card number or a link's token in a field of any name: redacted too
        scrubbed = _data_uri(text) if text.startswith("data:") else scrub_text(text)
        if scrubbed != text:
            return scrubbed  # written as a string, the number it may have been no longer
    return value


def _redact_object(value: dict, name: str, budget: _Budget | None) -> dict:
    """An object's fields redacted as `redact` does each; a plain text field with no rule of its own is
    kept as it is, without a call of its own: most fields are such. A key is a text like any other."""
    kept = {}
    for key, item in value.items():
        field = str(key)
        shown = _key(field)
        if budget is not None:
            if budget.left < 0:
                break
            budget.left -= len(shown)
        if type(item) is str and _field(field, name)[1] is None and plain(item) and not item.startswith("data:"):
            kept[shown] = item
            if budget is not None:
                budget.left -= len(item) - len(_NUMBER)
        else:
            kept[shown] = redact(item, field, name, budget)
    return kept


@functools.lru_cache(maxsize=4096)
def _key(key: str) -> str:
    """A key as written: a text like any other, whose rules change next to none (names repeat: cached)."""
    return key if plain(key) else scrub_text(key)


_BASE64_DATA = re.compile(r"data:[^,;]*(?:;[^,;]+)*;base64,")
_NOT_KEPT = re.compile(r"\[[0-9,]+ characters, not kept\]")


def _data_uri(text: str) -> str:
    """Base64 data in a data: URI (a PIX payment's `qr_code_img`) kept as its type and length: it is
    derived from what the body says beside it, no text to read, so none of it is scanned for card numbers."""
    head = _BASE64_DATA.match(text)
    if head is None:
        return scrub_text(text)
    if _NOT_KEPT.fullmatch(text, head.end()):
        return text  # already so (a row shown again)
    return f"{head.group(0)}[{len(text) - head.end():,} characters, not kept]"


def _bounded(text: str) -> str:
    if len(text) <= MAX_BODY:
        return text
    return text[: MAX_BODY - len(TRUNCATED)] + TRUNCATED


def _number(text: str) -> str:
    return _NUMBER + text


_MARKED = re.compile(r'"\\u0000n:([-+0-9.eE]+)"')


def _written(value: Any) -> str:
    written = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if "\\u0000n:" not in written:  # no number in the body: nothing to unmark, and no scan of it for one
        return written
    return _MARKED.sub(lambda m: m.group(1), written)


def storable(text: str) -> str:
    """A text any database takes: a NUL or a lone surrogate (a body's `"\\ud800"`) as U+FFFD."""
    if text.isascii() and "\x00" not in text:  # isascii() is a flag of the string's, read at no cost
        return text
    return _UNSTORABLE.sub("\ufffd", text)


def redacted_body(raw: bytes | str) -> str:
    """A body as it is kept: JSON redacted field by field and written compactly (numbers as they came);
    anything else only as its length; at most MAX_BODY characters, marked when cut."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    if not text.strip():
        return ""
    try:
        parsed = json.loads(text, parse_float=_number, parse_int=_number, parse_constant=_number)
    except (ValueError, RecursionError):
        # Not JSON (broken, form-encoded, anything): its fields cannot be told apart, so none of it is kept.
        return f"[not JSON: {len(raw)} bytes, not kept]"
    # The budget changes nothing that is kept, only what is redacted to be cut away: worth counting for a
    # body longer than the cut (a shorter one is cut only if redaction lengthened it).
    budget = _Budget(MAX_BODY) if len(text) > MAX_BODY else None
    try:
        written = _written(redact(parsed, budget=budget))
    except RecursionError:  # nested deeper than redaction goes: none of it is kept
        return f"[nested too deeply: {len(raw)} bytes, not kept]"
    return storable(_bounded(written))


def shown(stored: str) -> str:
    """A kept body with the text rules applied again: a row written before a rule was added shows no
    more than a row written after it (the rules change nothing in a text they have already seen)."""
    try:
        return storable(_written(_scrubbed(json.loads(stored, parse_float=_number, parse_int=_number))))
    except (ValueError, RecursionError):  # cut at MAX_BODY, or a note such as "[not JSON: ...]"
        return storable(scrub_text(stored))


def _scrubbed(value: Any) -> Any:
    if isinstance(value, dict):
        return {scrub_text(key): _scrubbed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_scrubbed(item) for item in value]
    if isinstance(value, str):
        text = value.removeprefix(_NUMBER)
        scrubbed = _data_uri(text) if text.startswith("data:") else scrub_text(text)
        return value if scrubbed == text else scrubbed
    return value
