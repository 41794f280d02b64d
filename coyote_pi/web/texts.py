"""The page's words, in the table's language, from the same gettext catalogs as the table.

The page speaks the table's language (``live.json`` says which). Its texts are keys of
the catalogs in ``coyote_pi/locale/`` (:mod:`coyote_pi.locale`), beside the OLED's: the
verdict's explanation, "Seat 3 wins", card names and variants are the table's own
messages, so the page and the table never word the same thing differently::

    >>> t = Texts("de")
    >>> t("nav.history"), t("verdict.winner", seat=2), t.plural("history.rounds", 1, rounds=1)
    ('Verlauf', 'Platz 2 gewinnt', '1 Runde')

The templates reach the catalogs through jinja2's i18n extension: ``{{ _("nav.history") }}``
and ``{{ ngettext("history.rounds", "history.rounds", n, rounds=n) }}`` (brace placeholders,
as everywhere in the catalogs), with the callables :meth:`Texts.template_words` gives.
"""

from __future__ import annotations

from coyote_pi.locale import LANGUAGES
from coyote_pi.words.translator import Translator


class Texts(Translator):
    """The page's texts in one language; a language the page does not know reads English."""

    def __init__(self, language: str | None) -> None:
        super().__init__(language if language in LANGUAGES else "en")

    def template_words(self) -> dict[str, object]:
        """What a template needs to speak: jinja2's ``gettext`` and ``ngettext`` (its ``_``
        alias calls the first) and the page's ``language``."""
        return {"gettext": self, "ngettext": self.ngettext, "language": self.language}

    def ngettext(self, key: str, plural_key: str, number: int, /, **params: object) -> str:
        """gettext's ``ngettext`` as templates call it: a key names both forms here (the
        catalogs' ``msgid`` and ``msgid_plural`` are the same key)."""
        return self.plural(key, number, **params)
