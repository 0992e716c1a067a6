"""The catalogues by content: the template matches the code, every message is translated in every locale, none
fuzzy, placeholders kept, the compiled files say what their sources say; a new locale is found by itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po
from flask import g

from checkout import translations
from checkout.dashboard import web
from checkout.pages import layout
from tests.translations.catalogues import LOCALES, read

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def _key(message_id: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(message_id) if isinstance(message_id, (tuple, list)) else (message_id,)


def extracted() -> set[tuple[str, ...]]:
    """What `pybabel extract -F babel.cfg` finds in the code and templates today (keywords from babel.cfg)."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    return {_key(message) for _, _, message, *_ in extract_from_dir(str(ROOT), method_map, options_map)}


def template() -> Catalog:
    with (translations.FOLDER / "messages.pot").open("rb") as source:
        return read_po(source)


def ids(catalogue: Catalog) -> set[tuple[str, ...]]:
    return {_key(message.id) for message in catalogue if message.id}


def test_the_template_holds_what_the_code_says():
    """`make translations` was run after the last change to a text: the .pot is neither missing nor keeping one."""
    in_code, in_template = extracted(), ids(template())
    assert sorted(in_code - in_template) == []  # new texts: run `make translations`
    assert sorted(in_template - in_code) == []  # texts the code no longer has
    assert len(in_code) > 500


def test_every_catalogue_is_compiled_and_offered():
    sources = sorted(path.parent.parent.name for path in translations.FOLDER.glob("*/LC_MESSAGES/messages.po"))
    assert translations.locales() == ("en", *sources)
    assert {"es_MX", "pt_BR"} <= set(LOCALES)


def _forms(message: Message) -> tuple[str, ...]:
    return _key(message.string)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_is_translated_once_and_not_fuzzy(locale):
    catalogue = read(locale)
    assert ids(catalogue) == ids(template())
    untranslated = [message.id for message in catalogue if message.id and not all(_forms(message))]
    fuzzy = [message.id for message in catalogue if message.id and message.fuzzy]
    assert (untranslated, fuzzy, list(catalogue.obsolete)) == ([], [], [])
    # As many forms as the catalogue's own Plural-Forms header says (not Babel's table of the day, which
    # gained CLDR's "many" for Spanish and Portuguese in 2.19): gettext reads the header.
    plural = [message for message in catalogue if message.pluralizable]
    assert plural and all(len(_forms(message)) == catalogue.num_plurals for message in plural)


def misplaced(message: Message) -> list[str]:
    """The forms of `message`'s translation whose placeholders differ from its English. A plural form may say
    its number in words ("one line") instead of %(num)d; nothing else may go or come."""
    wanted = set(PLACEHOLDER.findall(_key(message.id)[-1]))
    spared = {"num"} if message.pluralizable else set()
    return [form for form in _forms(message) if (set(PLACEHOLDER.findall(form)) ^ wanted) - spared]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_translation_keeps_the_placeholders_of_its_text(locale):
    catalogue = read(locale)
    wrong = {_key(message.id)[0]: forms for message in catalogue if message.id and (forms := misplaced(message))}
    assert wrong == {}
    assert [error for message in catalogue for error in message.check(catalogue)] == []


@pytest.mark.parametrize("locale", LOCALES)
def test_the_compiled_catalogue_says_what_its_source_says(locale):
    with (translations.FOLDER / locale / "LC_MESSAGES" / "messages.mo").open("rb") as compiled:
        mo = read_mo(compiled)
    source = read(locale)
    assert {_key(m.id): _forms(m) for m in mo if m.id} == {_key(m.id): _forms(m) for m in source if m.id}


def test_a_translation_that_drops_or_adds_a_placeholder_is_caught():
    """The placeholder check itself."""
    catalogue = Catalog(locale="pt_BR")
    catalogue.add("Pay %(merchant)s", "Pagar", flags=["python-format"])
    catalogue.add("Fee %(amount)s", "Taxa %(amount)s de %(merchant)s", flags=["python-format"])
    catalogue.add("Fine %(amount)s", "Certo %(amount)s", flags=["python-format"])
    catalogue.add(("%(num)d line", "%(num)d lines"), ("uma linha", "%(num)d linhas"), flags=["python-format"])
    assert [misplaced(message) for message in catalogue if message.id] == [
        ["Pagar"],
        ["Taxa %(amount)s de %(merchant)s"],
        [],
        [],
    ]


def test_a_new_locale_needs_only_its_compiled_catalogue(tmp_path, monkeypatch):
    """What CONTRIBUTING.md promises: `pybabel init -l fr_FR`, translate, `make translations`, and it is served."""
    folder = tmp_path / "fr_FR" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    catalogue = Catalog(locale="fr_FR")
    catalogue.add("Card number", "Numéro de carte")
    with (folder / "messages.mo").open("wb") as out:
        write_mo(out, catalogue)
    monkeypatch.setattr(translations, "FOLDER", tmp_path)
    translations.locales.cache_clear()
    try:
        found = translations.locales()
    finally:
        translations.locales.cache_clear()
    assert found == ("en", "fr_FR")
    aliases = layout._aliases(("en", "es_AR", "es_MX", "fr_FR", "pt_BR"))
    assert (aliases["fr"], aliases["fr-fr"], aliases["es"], aliases["es-ar"], aliases["pt"]) == (
        "fr_FR",
        "fr_FR",
        "es_MX",  # a bare "es" keeps reading Mexican Spanish when another Spanish arrives
        "es_AR",
        "pt_BR",
    )


@pytest.mark.parametrize(
    ("language", "minutes", "sentence"),
    [
        ("pt-BR", 1, "Tente de novo em 1 minuto,"),
        ("pt-BR", 2, "Tente de novo em 2 minutos,"),
        ("es-MX", 1, "Inténtalo de nuevo en 1 minuto,"),
        ("es-MX", 15, "Inténtalo de nuevo en 15 minutos,"),
        ("en", 1, "Try again in 1 minute,"),
        ("en", 0, "Try again in 0 minutes,"),
    ],
)
def test_a_count_is_said_in_the_plural_form_of_its_locale(app, language, minutes, sentence):
    with app.test_request_context(f"/dashboard/login?language={language}"):
        g.page_locale = layout.choose_locale(None)
        html = web.render("dashboard/locked.html", 429, minutes=minutes, retry_at="10:00")[0]
    assert sentence in html
