"""Boleto bancário: the 44-digit barcode and the 47-digit linha digitável with their check digits."""

from __future__ import annotations

from datetime import date

# FEBRABAN due-date factor: days since 1997-10-07, which reached 9999 on 2025-02-21; from
# 2025-02-22 the factor restarts at 1000 and keeps counting (and restarts again after 9999).
FACTOR_BASE = date(1997, 10, 7)
FACTOR_RESET = date(2025, 2, 22)


class BoletoError(ValueError):
    pass


def due_factor(due: date) -> int:
    if due < FACTOR_RESET:
        factor = (due - FACTOR_BASE).days
        if factor < 1000:
            raise BoletoError("due dates before 2000-07-03 have no factor")
        return factor
    return 1000 + (due - FACTOR_RESET).days % 9000


def mod10(digits: str) -> int:
    """Check digit of the linha digitável's fields: weights 2,1,2,... from the right, digits of products summed."""
    total = 0
    for position, char in enumerate(reversed(digits)):
        product = int(char) * (2 if position % 2 == 0 else 1)
        total += product // 10 + product % 10
    return (10 - total % 10) % 10


def mod11(digits: str) -> int:
    """General check digit of the barcode: weights 2..9 from the right; results 0, 10 and 11 become 1."""
    total = sum(int(char) * (2 + position % 8) for position, char in enumerate(reversed(digits)))
    check = 11 - total % 11
    return 1 if check in (0, 10, 11) else check


def barcode(*, bank: str, due: date, amount_minor: int, free_field: str, currency: str = "9") -> str:
    digits = bank + free_field
    if len(bank) != 3 or len(free_field) != 25 or not (digits.isascii() and digits.isdigit()):
        raise BoletoError("bank is 3 digits and the free field 25 digits")
    if not 0 <= amount_minor <= 99_999_999_99:
        raise BoletoError("a boleto amount fits in 10 digits of centavos")
    without_check = f"{bank}{currency}{due_factor(due):04d}{amount_minor:010d}{free_field}"
    check = mod11(without_check)
    return without_check[:4] + str(check) + without_check[4:]


def linha_digitavel(code: str) -> str:
    """The 47 digits a payer types, from a 44-digit barcode."""
    if len(code) != 44 or not (code.isascii() and code.isdigit()):
        raise BoletoError("a barcode has 44 digits")
    free = code[19:44]
    field1 = code[0:4] + free[0:5]
    field2 = free[5:15]
    field3 = free[15:25]
    return (
        field1 + str(mod10(field1)) + field2 + str(mod10(field2)) + field3 + str(mod10(field3)) + code[4] + code[5:19]
    )


def barcode_from_linha(linha: str) -> str:
    """The barcode a linha digitável stands for; raises BoletoError when any check digit is wrong."""
    digits = "".join(c for c in linha if c in "0123456789")
    if len(digits) != 47:
        raise BoletoError("a linha digitável has 47 digits")
    for start, end in ((0, 9), (10, 20), (21, 31)):
        if mod10(digits[start:end]) != int(digits[end]):
            raise BoletoError(f"check digit of the field ending at position {end + 1} is wrong")
    code = digits[0:4] + digits[32] + digits[33:47] + digits[4:9] + digits[10:20] + digits[21:31]
    if mod11(code[:4] + code[5:]) != int(code[4]):
        raise BoletoError("general check digit is wrong")
    return code


def formatted(linha: str) -> str:
    """AAAAA.AAAAA BBBBB.BBBBBB CCCCC.CCCCCC D EEEEEEEEEEEEEE, as printed on a boleto."""
    d = linha
    return f"{d[0:5]}.{d[5:10]} {d[10:15]}.{d[15:21]} {d[21:26]}.{d[26:32]} {d[32]} {d[33:47]}"


def bank_box(linha: str) -> str:
    """The bank's code and its check digit, as the slip's first box prints it ("001-9", "104-0", "341-7"):
    modulo 11 of the three digits, weights 2, 3, 4 from the right, 10 and 11 written 0."""
    bank = linha[:3]
    check = 11 - sum(int(char) * weight for char, weight in zip(reversed(bank), (2, 3, 4), strict=True)) % 11
    return f"{bank}-{0 if check >= 10 else check}"
