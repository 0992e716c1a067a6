"""An amount on a page is the amount charged: read back with its locale's signs it is the same number, whatever
digits the CLDR of the day gives its currency, in Latin digits; on a page whose language is not its format locale's
(an English page in ar_BH's formats), no letter of another script and no right-to-left mark, and on an English page
the currency's symbol as English writes it (zh_Hant_TW's "$" would read as US dollars)."""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal

from babel import Locale, numbers
from hypothesis import given
from hypothesis import strategies as st

from checkout import money
from checkout.pages import i18n, layout

# The catalogues' locales and every country's format locale (es_AR, en_PH, ko_KR, ar_BH, tr_TR...).
LOCALES = sorted({"en", "pt_BR", "es_MX", *layout.COUNTRY_FORMATS.values()})
CURRENCIES = sorted(money.MINOR_UNITS)


def read_back(text: str, locale: str) -> Decimal:
    """The number a reader takes from `text`: its digits, the locale's group sign dropped, its decimal sign a point."""
    group, decimal = numbers.get_group_symbol(locale), numbers.get_decimal_symbol(locale)
    body = re.search(rf"\d[\d{re.escape(group)}{re.escape(decimal)}]*", text).group(0)
    return Decimal(body.replace(group, "").replace(decimal, "."))


@st.composite
def charged(draw) -> tuple[Decimal, str]:
    currency = draw(st.sampled_from(CURRENCIES))
    minor = draw(st.integers(min_value=1, max_value=10**11))
    return money.from_minor(minor, currency), currency


def latin(text: str) -> bool:
    """Digits 0 to 9 only, and no letter of another script than Latin."""
    digits = all(c in "0123456789" for c in text if c.isdigit())
    return digits and not any(
        unicodedata.category(c)[0] == "L" and "LATIN" not in unicodedata.name(c, "") for c in text
    )


@given(charged(), st.sampled_from(LOCALES))
def test_the_amount_shown_reads_back_as_the_amount_charged(amount_currency, locale):
    amount, currency = amount_currency
    shown = i18n._currency(amount, currency, locale)
    assert read_back(shown, locale) == amount, shown
    assert all(c in "0123456789" for c in shown if c.isdigit()), shown  # never Arabic-Indic digits
    assert numbers.get_currency_symbol(currency, locale) in shown


@given(charged(), st.sampled_from(LOCALES))
def test_on_an_english_page_the_amount_reads_back_in_latin_letters_and_digits(amount_currency, locale):
    amount, currency = amount_currency
    shown = i18n._currency(amount, currency, locale, "en")
    assert read_back(shown, locale) == amount, shown
    assert latin(shown) and not set(shown) & set(map(chr, i18n.BIDI_MARKS)), shown
    own, english = numbers.get_currency_symbol(currency, locale), numbers.get_currency_symbol(currency, "en")
    if Locale.parse(locale).language == "en":  # the country's own English (en_MY's "RM"): kept
        assert own in shown, shown
    else:
        assert english in shown, shown
        assert own.translate(i18n.BIDI_MARKS) not in shown.replace(english, ""), shown


# The format locales an English page can have that write another language (zh_Hant_TW, ar_BH, ru_RU...).
FOREIGN = [locale for locale in LOCALES if Locale.parse(locale).language not in ("en", "pt", "es")]


def test_an_english_page_writes_every_symbol_as_english_does_where_the_locale_writes_it_otherwise():
    """Every currency in every other-language format locale of an English page: where the locale's symbol is not
    English's (TWD's "$" in zh_Hant_TW, CNY's "¥" in zh_Hans_CN, THB's "฿"), the amount carries English's, and the
    locale's is gone; where both write it alike (KRW's "₩"), that one. Both come from Babel's own data."""
    changed = 0
    for locale in FOREIGN:
        for currency in CURRENCIES:
            own = numbers.get_currency_symbol(currency, locale).translate(i18n.BIDI_MARKS)
            english = numbers.get_currency_symbol(currency, "en")
            shown = i18n._currency(Decimal("1500.50"), currency, locale, "en")
            assert english in shown, (locale, currency, shown)
            if own != english:
                changed += 1
                assert own not in shown.replace(english, ""), (locale, currency, shown)
    assert changed, "no locale writes a symbol otherwise than English: the check above checked nothing"


def test_taiwan_dollars_and_yuan_on_an_english_page_do_not_read_as_us_dollars_or_yen():
    """The two amounts that read as another currency, held to what Babel itself writes for `en`."""
    for currency, locale in (("TWD", "zh_Hant_TW"), ("CNY", "zh_Hans_CN")):
        shown = i18n._currency(Decimal("1500.50"), currency, locale, "en")
        english = numbers.format_currency(Decimal("1500.50"), currency, locale="en")
        assert shown == english, (currency, shown)  # both locales group and split as English does
        # The mistake fixed: the locale's own symbol would have been US dollars' or yen's in English.
        own = numbers.get_currency_symbol(currency, locale)
        assert own != numbers.get_currency_symbol(currency, "en")
        assert i18n._currency(Decimal("1500.50"), currency, locale) == numbers.format_currency(
            Decimal("1500.50"), currency, locale=locale, numbering_system="latn"
        )


def test_every_currency_in_every_locale_on_its_own_page_and_an_english_one():
    """Beside the sampled amounts: each pair once, with the most digits each currency has (1234567.891 BHD,
    1234567.89 BRL, 1234567 KRW), negative too."""
    for locale in LOCALES:
        for currency in CURRENCIES:
            largest = money.from_minor(1234567891 // 10 ** (3 - money.exponent(currency)), currency)
            for amount in (largest, -largest):
                for language in (None, "en"):
                    shown = i18n._currency(amount, currency, locale, language)
                    assert read_back(shown, locale) == abs(amount), (locale, currency, shown)
                    assert latin(shown) if language else all(c in "0123456789" for c in shown if c.isdigit())


def test_an_amount_is_never_rounded_to_fewer_digits_than_its_currency_has(monkeypatch):
    """A CLDR release giving BHD two digits (ISO 4217: three) and KRW two (none): the amount charged is still the
    one shown, with BHD's three decimals."""
    cldr = numbers.get_currency_precision
    monkeypatch.setattr(numbers, "get_currency_precision", lambda c: 2 if c in ("BHD", "KRW") else cldr(c))
    i18n._currency.cache_clear()
    try:
        for locale in ("en", "ar_BH", "es_MX"):
            shown = i18n._currency(Decimal("1234.567"), "BHD", locale, "en")
            assert read_back(shown, locale) == Decimal("1234.567"), shown
            assert shown.rpartition(numbers.get_decimal_symbol(locale))[2][:3] == "567", shown
            assert read_back(i18n._currency(Decimal("15000"), "KRW", locale), locale) == Decimal(15000)
    finally:
        i18n._currency.cache_clear()


def test_a_currency_whose_cldr_digits_are_fewer_keeps_the_cents_charged():
    """COP has 2 minor units in ISO 4217 (a trade may be 3000.50); CLDR 49 gives it none. Whole amounts are
    written as CLDR writes them, an amount with cents keeps them."""
    whole, cents = i18n._currency(Decimal("3000"), "COP", "es_CO"), i18n._currency(Decimal("3000.50"), "COP", "es_CO")
    assert whole == numbers.format_currency(Decimal("3000"), "COP", locale="es_CO")
    assert cents.endswith(numbers.get_decimal_symbol("es_CO") + "50")
    assert read_back(cents, "es_CO") == Decimal("3000.50")
