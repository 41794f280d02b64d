"""Every text the table shows players, in its language, from the gettext catalogs.

Screens never hold literal text: they ask a :class:`Translator` for a key and its
parameters. The texts are in ``coyote_pi/locale/<language>/LC_MESSAGES/coyote_pi.po``
(:mod:`coyote_pi.locale`), shared with the web page; a test checks that every key exists
in each language with the same parameters and complete plural forms, and that the
shipped font draws every character::

    >>> tr = Translator("de")
    >>> tr("msg.not_your_turn", seat=4)
    'Platz 4: nicht dran'
    >>> Translator("ru")("choice.coyote")
    'КОЙОТ!'
    >>> Translator("ru").plural("setup.stands", 4, count=4)
    'Камера видит 4 подставки'
    >>> Translator("en").for_seats("msg.not_confirming", [5])
    'Seat 5 confirms'

Refusals from the engine (:class:`~coyote_pi.engine.errors.IllegalAction`) carry a
``code``; :func:`refusal_key` maps it to a short message key (the engine's own English
sentence is too long for a 128x64 screen and only English).

Card values are written with :func:`card_text` (``Max 0`` in every language).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from coyote_pi import cards
from coyote_pi.engine.errors import Refusal
from coyote_pi.locale import LANGUAGE_NAMES, LANGUAGES, catalog, placeholders, plural_keys, translations

__all__ = ["CATALOGUE", "ENGLISH", "LANGUAGES", "LANGUAGE_NAMES", "Translator", "card_text", "placeholders", "refusal_key"]


def _texts_by_key() -> dict[str, dict[str, str]]:
    """Each key's text in every language (a plural message: its last, most general form)."""
    texts: dict[str, dict[str, str]] = {}
    for language in LANGUAGES:
        for message in catalog(language):
            if not message.id:
                continue
            key = message.id[0] if isinstance(message.id, (tuple, list)) else message.id
            text = message.string[-1] if isinstance(message.string, (tuple, list)) else message.string
            texts.setdefault(key, {})[language] = text or ""
    return texts


#: key -> language -> text, read from the catalogs: what the tests of wording and width
#: walk through (the screens use :class:`Translator`).
CATALOGUE: dict[str, dict[str, str]] = _texts_by_key()

#: Refusal -> message key. The refusals not listed (a bad record, file or command line,
#: never a button's) show "refusal.other".
_REFUSALS: dict[Refusal, str] = {
    Refusal.NOT_YOUR_TURN: "msg.not_your_turn",
    Refusal.SEAT_OUT: "msg.seat_out",
    Refusal.NO_SUCH_SEAT: "msg.not_playing",
    Refusal.NOT_A_GUESSER: "msg.not_a_guesser",
    Refusal.BID_TOO_LOW: "refusal.bid_too_low",
    Refusal.NO_BID: "refusal.no_bid",
    Refusal.CHALLENGE_AFTER_PEEK: "refusal.must_raise",
    Refusal.CHALLENGE_AFTER_COYOTE_CARD: "refusal.must_raise",
    Refusal.CANNOT_PEEK: "refusal.cannot_peek",
    Refusal.CANNOT_USE_COYOTE_CARD: "refusal.cannot_use_coyote_card",
    Refusal.ALREADY_GUESSED: "refusal.already_guessed",
    Refusal.NOTHING_TO_UNDO: "refusal.nothing_to_undo",
    Refusal.UNDO_AFTER_UNDO: "refusal.undo_after_undo",
    Refusal.NOT_YOUR_BID: "refusal.not_your_bid",
    Refusal.DUPLICATE_CARD: "refusal.duplicate_card",
    Refusal.BAD_REVEAL: "refusal.bad_reveal",
    Refusal.BAD_REPLACEMENT: "refusal.bad_replacement",
    Refusal.NOTHING_TO_CORRECT: "refusal.nothing_to_correct",
    Refusal.BAD_CORRECTION: "refusal.bad_correction",
    Refusal.CORRECTION_NEEDS_DRAW: "refusal.correction_needs_draw",
}


def refusal_key(code: Refusal) -> str:
    """The message key for an :class:`~coyote_pi.engine.errors.IllegalAction` code."""
    return _REFUSALS.get(code, "refusal.other")


def card_text(card: str) -> str:
    """A card as printed on it: ``"7"``, ``"-10"``, ``"?"``, ``"Max 0"``."""
    return cards.display_name(card)


class Translator:
    """Looks up catalog texts in one language and fills in their parameters.

    A key missing from the catalogs is a programming error and raises KeyError (the
    completeness test makes sure that never reaches a table); so is asking for a text
    that depends on a count without giving the count (:meth:`plural`).
    """

    def __init__(self, language: str = "en") -> None:
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r} (choose {', '.join(LANGUAGES)})")
        self.language = language
        self._translations = translations(language)

    def __call__(self, key: str, **params: object) -> str:
        if key not in CATALOGUE:
            raise KeyError(key)
        if key in _PLURALS:
            raise KeyError(f"{key} depends on a count: use Translator.plural")
        return self._translations.gettext(key).format(**params)

    def plural(self, key: str, number: int, /, **params: object) -> str:
        """The text of ``key`` for ``number`` things, in the form the language uses for it."""
        if key not in _PLURALS:
            raise KeyError(f"{key} has no plural forms")
        return self._translations.ngettext(key, key, number).format(**params)

    def refusal(self, code: Refusal, params: Mapping[str, object]) -> str:
        """A short message for an engine refusal (its params fill the text, e.g. ``current``)."""
        key = refusal_key(code)
        wanted = placeholders(CATALOGUE[key][self.language])
        return self(key, **{name: params.get(name, "?") for name in wanted})

    def seats(self, seats: Iterable[int]) -> str:
        """A list of seats for a message: ``"2, 5"``."""
        return ", ".join(str(s) for s in seats)

    def for_seats(self, key: str, seats: Iterable[int], /, **params: object) -> str:
        """The text of ``key`` naming ``seats`` in its ``{seats}``, in the form for their
        number: ``"Seat 2 confirms"``, ``"Seats 2, 5 confirm"``."""
        listed = tuple(seats)
        return self.plural(key, len(listed), seats=self.seats(listed), **params)


_PLURALS = plural_keys()

#: The English words of the device's journal and the developers' tools (the play-by-play,
#: the transcripts), which stay in English whatever the table's language.
ENGLISH = Translator("en")
