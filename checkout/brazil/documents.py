"""Brazilian taxpayer numbers: CPF (people) and CNPJ (companies), check digits by python-stdnum."""

from __future__ import annotations

from stdnum.br import cnpj, cpf

from ..validation import is_digits


def brazilian_document(kind: str, number: str) -> bool:
    """A CPF (11 digits) or CNPJ (14) with valid check digits; one digit repeated is never valid."""
    size, module = {"CPF": (11, cpf), "CNPJ": (14, cnpj)}.get(kind, (0, None))
    return (
        module is not None
        and is_digits(number)
        and len(number) == size
        and len(set(number)) > 1
        and module.is_valid(number)
    )
