"""Hypothesis strategies and reference check-digit rules shared by the property tests."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from checkout.payouts.clabe import BANKS as CLABE_BANKS

# No example database: the suite runs from a clean checkout in CI and must not leave .hypothesis/ behind.
# No explain phase: it re-runs a failing example under a tracer, minutes for the codec and ledger tests.
PROPERTY = settings(
    deadline=None,
    database=None,
    max_examples=50,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
)
# For properties that take a read-only function-scoped fixture (a merchant, a client): nothing an example
# does changes what the next one sees, so sharing the fixture between examples is safe.
SHARED_FIXTURES = settings(PROPERTY, suppress_health_check=[HealthCheck.function_scoped_fixture])


def digits(size: int) -> st.SearchStrategy[str]:
    return st.text(alphabet="0123456789", min_size=size, max_size=size)


def single_digit_corruptions(text: str) -> Iterator[tuple[int, str]]:
    """Every text that differs from `text` in exactly one digit, changed to another digit."""
    for position, char in enumerate(text):
        if char in "0123456789":
            for other in "0123456789":
                if other != char:
                    yield position, text[:position] + other + text[position + 1 :]


# --- CPF and CNPJ: the Receita Federal's mod-11 rule, written here independently of the service --------

CPF_WEIGHTS = (range(10, 1, -1), range(11, 1, -1))
CNPJ_WEIGHTS = ((5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2), (6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2))


def _mod11(body: str, weights) -> str:
    rest = sum(int(d) * w for d, w in zip(body, weights, strict=True)) % 11
    return "0" if rest < 2 else str(11 - rest)


def with_check_digits(body: str, weights: tuple) -> str:
    first = body + _mod11(body, weights[0])
    return first + _mod11(first, weights[1])


def has_valid_check_digits(number: str, weights: tuple) -> bool:
    size = len(weights[1]) + 1
    return len(number) == size and with_check_digits(number[:-2], weights) == number


def cpfs() -> st.SearchStrategy[str]:
    # One repeated digit (111.111.111-11) has valid check digits but the service refuses it on purpose.
    return digits(9).map(lambda body: with_check_digits(body, CPF_WEIGHTS)).filter(lambda n: len(set(n)) > 1)


def cnpjs() -> st.SearchStrategy[str]:
    return digits(12).map(lambda body: with_check_digits(body, CNPJ_WEIGHTS)).filter(lambda n: len(set(n)) > 1)


# --- CLABE: Banxico's weights 3, 7, 1, each product taken mod 10 -------------------------------------


def clabe_check_digit(first17: str) -> str:
    total = sum(int(d) * (3, 7, 1)[i % 3] % 10 for i, d in enumerate(first17))
    return str((10 - total % 10) % 10)


def clabes() -> st.SearchStrategy[str]:
    first17 = st.builds(lambda bank, rest: bank + rest, st.sampled_from(sorted(CLABE_BANKS)), digits(14))
    return first17.map(lambda body: body + clabe_check_digit(body))


# --- JSON bodies as a merchant's client builds them -----------------------------------------------------

# Floats stand for what a client's JSON encoder writes for a number with a fraction or an exponent; the
# service never computes with them (it reads them as JsonNumber, keeping their text).
numbers = st.integers(min_value=-(10**30), max_value=10**30) | st.floats(allow_nan=False, allow_infinity=False)
# Text the service accepts anywhere: NUL is refused on purpose (PostgreSQL text cannot hold it).
texts = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=10)
json_scalars = st.none() | st.booleans() | numbers | texts


def json_values(scalars: st.SearchStrategy = json_scalars, keys: st.SearchStrategy = texts) -> st.SearchStrategy:
    return st.recursive(
        scalars,
        lambda children: st.lists(children, max_size=3) | st.dictionaries(keys, children, max_size=3),
        max_leaves=4,
    )


def json_objects(
    scalars: st.SearchStrategy = json_scalars, keys: st.SearchStrategy = texts, min_size: int = 0
) -> st.SearchStrategy[dict]:
    return st.dictionaries(keys, json_values(scalars, keys), min_size=min_size, max_size=6)


def shuffled(value, random):
    """The same JSON value with every object's keys in another order (Python dicts keep insertion order)."""
    if isinstance(value, dict):
        keys = list(value)
        random.shuffle(keys)
        return {key: shuffled(value[key], random) for key in keys}
    if isinstance(value, list):
        return [shuffled(item, random) for item in value]
    return value
