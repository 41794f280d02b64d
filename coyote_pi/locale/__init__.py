"""Every text people read, in gettext catalogs: one ``.po`` file per language.

The table's screens, its terminal and its web page share one domain, ``coyote_pi``, kept
in ``coyote_pi/locale/<language>/LC_MESSAGES/coyote_pi.po``. A message's ``msgid`` is a
stable key (``msg.not_your_turn``), so code and templates name what they say without
repeating its wording, and the English text is a translation like the others
(``en/LC_MESSAGES/coyote_pi.po``): a key is added or reworded in one place. Texts hold
Python brace placeholders (``{seat}``); a count has real plural forms (``msgid_plural``,
``msgstr[0..n]``; Russian has three). docs/translating.md says how to add a language.

The catalogs are compiled when first used, in memory, by Babel's own ``.mo`` writer (the
one ``pybabel compile`` runs) and read back by the standard library's :mod:`gettext`:
the same happens in a checkout, a wheel and the Pi's install, and no generated file is
kept in the package::

    >>> translations("de").gettext("nav.history")
    'Verlauf'
    >>> [translations("ru").ngettext("history.rounds", "history.rounds", n).format(rounds=n) for n in (1, 3, 5)]
    ['1 раунд', '3 раунда', '5 раундов']
"""

from __future__ import annotations

import functools
import gettext
import io
import string
from importlib import resources

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

#: The catalogs' domain: the file name of every language's ``.po``.
DOMAIN = "coyote_pi"
#: The languages shipped, in the order the table's setup offers them.
LANGUAGES: tuple[str, ...] = ("en", "de", "ru")
#: How each language names itself on the setup screen (never translated).
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "de": "Deutsch", "ru": "Русский"}


def po_text(language: str) -> str:
    """The ``.po`` source of ``language`` as shipped in the package."""
    return resources.files(__name__).joinpath(language, "LC_MESSAGES", f"{DOMAIN}.po").read_text(encoding="utf-8")


@functools.cache
def catalog(language: str) -> Catalog:
    """The parsed catalog of ``language`` (Babel's model of the ``.po``: the tests read it)."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (choose {', '.join(LANGUAGES)})")
    return read_po(io.StringIO(po_text(language)), locale=language, domain=DOMAIN)


@functools.cache
def translations(language: str) -> gettext.GNUTranslations:
    """``language``'s catalog compiled to ``.mo`` (in memory) and loaded by :mod:`gettext`.

    No fallback: a key missing from a catalog comes back as the key itself, which the
    completeness test (tests/test_locale.py) keeps from ever reaching a screen.
    """
    compiled = io.BytesIO()
    write_mo(compiled, catalog(language))
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def template() -> Catalog:
    """A translator's starting point (``make messages`` writes it to ``build/coyote_pi.pot``
    for ``pybabel init``): every key with no translation, its English text in a comment,
    and no plural rule of its own, so that a new catalog takes its language's."""
    english = catalog("en")
    out = Catalog(domain=DOMAIN, project=english.project, version=english.version,
                  copyright_holder=english.copyright_holder, charset="utf-8", fuzzy=False)
    for message in english:
        if not message.id:
            continue
        said = " | ".join(message.string) if isinstance(message.string, (tuple, list)) else message.string
        comments = [c for c in message.auto_comments if not c.startswith("English:")] + [f"English: {said}"]
        out.add(message.id, ("", "") if message.pluralizable else "", auto_comments=comments)
    return out


def plural_keys() -> frozenset[str]:
    """The keys whose text depends on a count (``msgid_plural`` entries)."""
    return frozenset(message.id[0] for message in catalog("en") if message.id and message.pluralizable)


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a catalog text expects."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}
