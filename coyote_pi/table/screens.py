"""The OLED's screens, built from the game and the table's state (never from its parts).

Each function returns :class:`~coyote_pi.devices.screen.Screen` objects, the plain-data
model the display lays out (title on top, one big text, a few small lines, the seat
strip with eyes along the bottom). Screens only ever show what
:func:`~coyote_pi.engine.views.public_view` allows: turns, bids, eyes, who peeked or
guessed, and the cards of a round once it is resolved; never a card of an open round.

Texts come from :mod:`coyote_pi.words.translator`; the functions take a translator ``tr``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

from coyote_pi import cards
from coyote_pi import record as game_record
from coyote_pi.devices.screen import Screen, SeatStatus
from coyote_pi.engine import Correct, Game, RoundResult
from coyote_pi.engine.events import CardPlace, place_seat
from coyote_pi.table.camera_wait import Problem
from coyote_pi.table.correction import Correction, Step
from coyote_pi.table.selector import Choice, ChoiceKind
from coyote_pi.table.stages import Question
from coyote_pi.table.state import HoldKind
from coyote_pi.words.translator import LANGUAGE_NAMES, Translator, card_text
from coyote_pi.words.verdict import explanation_lines, item_name


def seat_strip(game: Game, highlight: Iterable[int] = ()) -> list[SeatStatus]:
    """One cell per seat: eyes, out of the game or not, highlighted, Coyote-card holder."""
    marked = set(highlight)
    return [
        SeatStatus(
            seat,
            open_eyes=eyes.open,
            closed_eyes=eyes.closed,
            active=eyes.cards > 0,
            is_turn=seat in marked,
            holds_coyote=game.coyote_holder == seat,
        )
        for seat, eyes in sorted(game.eyes.items())
    ]


def _problem_lines(tr: Translator, problems: Sequence[Problem], offer_manual: bool) -> list[str]:
    lines = [problem.text(tr) for problem in problems] or [tr("camera.looking")]
    if offer_manual:
        lines.append(tr("camera.offer_manual"))
    return lines


# --- setup ------------------------------------------------------------------------------


def setup_value_text(tr: Translator, step: Question, value: object) -> str:
    if step == Question.VARIANT:
        return tr(f"variant.{value}")
    if step == Question.LANGUAGE:
        return LANGUAGE_NAMES[str(value)]  # a language's value is its code, a str already
    return str(value)


def setup_screen(tr: Translator, step: Question, value: object, stands: int | None = None,
                 framing: Sequence[Problem] = ()) -> Screen:
    """A setup question; while the players are asked, the stands the camera counted and
    the ones missing or too near the frame's edge (``framing``) come first."""
    lines = [tr("setup.hint")]
    if step == Question.PLAYERS:
        lines[:0] = ([tr.plural("setup.stands", stands, count=stands)] if stands else []) + [p.text(tr) for p in framing]
    return Screen(title=f"{tr('setup.title')}: {tr('setup.' + step)}", big=setup_value_text(tr, step, value), lines=lines)


def start_screen(tr: Translator, virtual: Mapping[int, str] | None = None) -> Screen:
    """Who starts? With the seats made virtual so far, and how to make one."""
    seats = [tr("setup.virtual_seat", seat=seat, level=tr(f"level.{level}")) for seat, level in (virtual or {}).items()]
    return Screen(title=tr("setup.start_title"), big=tr("setup.start_big"),
                  lines=[tr("setup.start_hint"), *seats, tr("setup.virtual_hint")])


# --- waiting for cards --------------------------------------------------------------------


def _manual_lines(tr: Translator, hint: str, no_camera: str | None) -> list[str]:
    return ([tr(no_camera)] if no_camera else []) + [hint]


# ``no_camera``: the text key saying why there is no camera ("problem.no_camera" and the
# like), None when there is one.
def deal_screen(tr: Translator, round_number: int, problems: Sequence[Problem], *, manual: bool,
                offer_manual: bool, no_camera: str | None = None) -> Screen:
    title = tr("round.title", round=round_number)
    if manual:
        return Screen(title=title, big=tr("deal.manual_big"), lines=_manual_lines(tr, tr("deal.manual_hint"), no_camera))
    return Screen(title=title, big=tr("deal.big"), lines=[tr("deal.hint"), *_problem_lines(tr, problems, offer_manual)])


def extra_screen(tr: Translator, seat: int, problems: Sequence[Problem], *, manual: bool, offer_manual: bool,
                 no_camera: str | None = None) -> Screen:
    lines = [tr("extra.hint")]
    if manual:
        lines += _manual_lines(tr, tr("extra.manual_hint", seat=seat), no_camera)
    else:
        lines += _problem_lines(tr, problems, offer_manual)
    return Screen(title=tr("extra.title"), big=tr("extra.big", seat=seat), lines=lines)


def reveal_screen(tr: Translator, challenger: int, bid: int, *, extra: bool, problems: Sequence[Problem],
                  offer_manual: bool) -> Screen:
    lines = [(tr("reveal.centre_extra") if extra else tr("reveal.centre")), *_problem_lines(tr, problems, offer_manual)]
    return Screen(title=tr("reveal.title", challenger=challenger, bid=bid), big=tr("reveal.big"), lines=lines)


def draw_screen(tr: Translator, problems: Sequence[Problem], *, offer_manual: bool) -> Screen:
    return Screen(title=tr("draw.title"), big=tr("draw.big"), lines=[tr("draw.hint"), *_problem_lines(tr, problems, offer_manual)])


def offer_screen(tr: Translator, seat: int, *, correction: bool = False) -> Screen:
    """``seat`` asked with minus+plus: enter the cards by hand (or, at the verdict, correct one)?"""
    title = tr("correct.offer_title") if correction else tr("manual.title")
    return Screen(title=title, big=tr("manual.big", seat=seat), lines=[tr("manual.hint")], alert=True)


def entry_item_title(tr: Translator, item: str) -> str:
    """``"centre"``, ``"extra"``, ``"draw"`` or ``"seat:3"`` as a question."""
    seat = place_seat(item)
    return tr(f"entry.{CardPlace(item)}") if seat is None else tr("entry.seat", seat=seat)


def dial_hint(tr: Translator, card: str) -> str:
    """The hint under a dialled card. The dial goes round (plus on Max 0 gives -10, minus
    on -10 gives Max 0), so at either end of the card list the hint says so."""
    first, last = cards.ALL_CARDS[0], cards.ALL_CARDS[-1]
    if card in (first, last):
        return tr("entry.hint_round", first=card_text(first), last=card_text(last))
    return tr("entry.hint")


def entry_screen(tr: Translator, item: str, card: str) -> Screen:
    return Screen(title=entry_item_title(tr, item), big=card_text(card), lines=[dial_hint(tr, card)])


# --- correcting the verdict -------------------------------------------------------------------


def correction_screen(tr: Translator, game: Game, correction: Correction) -> Screen:
    """The correction being entered: which card, what it is, then whose ok is awaited.
    Every card shown is of the round just resolved: public already."""
    item, read = item_name(tr, correction.item), tr("correct.read", card=card_text(correction.read()))
    cancel = tr("correct.cancel_hint")
    if correction.step == Step.ITEM:
        return Screen(title=tr("correct.title"), big=item, lines=[read, tr("correct.item_hint"), cancel])
    if correction.step == Step.CARD:
        return Screen(title=tr("correct.card_title", item=item), big=card_text(correction.card),
                      lines=[read, dial_hint(tr, correction.card), cancel])
    # The seats named are those whose ok is still awaited: a seat that confirmed drops out.
    return Screen(title=tr("correct.confirm_title", item=item, card=card_text(correction.card)),
                  big=tr("correct.confirm_big"),
                  lines=[tr.for_seats("correct.confirm_hint", correction.waiting), cancel] if correction.people
                  else [tr("correct.confirm_anyone"), cancel],
                  seats=seat_strip(game, correction.waiting))


# --- bidding and guessing -------------------------------------------------------------------


def choice_text(tr: Translator, choice: Choice) -> str:
    if choice.kind == ChoiceKind.BID:
        return str(choice.amount)
    return tr({ChoiceKind.CHALLENGE: "choice.coyote", ChoiceKind.PEEK: "choice.peek",
               ChoiceKind.COYOTE_CARD: "choice.coyote_card"}[choice.kind])


def turn_screen(tr: Translator, game: Game, seat: int, choice: Choice) -> Screen:
    """Whose turn, the bid to beat, the pending choice (big) and what ok will do."""
    r = game.current_round
    if r.bid is None:
        title = tr("turn.title_first", seat=seat)
        hint = tr("hint.first_bid", amount=choice.amount)
    else:
        title = tr("turn.title", seat=seat, bid=r.bid)
        if choice.kind == ChoiceKind.BID:
            must_raise = r.peeked_this_turn or r.coyote_card_this_turn
            hint = tr("hint.must_raise", amount=choice.amount) if must_raise else tr("hint.bid", amount=choice.amount)
        elif choice.kind == ChoiceKind.CHALLENGE:
            hint = tr("hint.coyote", bid=r.bid)
        else:
            hint = tr(f"hint.{choice.kind}")  # hint.peek, hint.coyote_card
    return Screen(title=title, big=choice_text(tr, choice), lines=[hint], seats=seat_strip(game, [seat]))


def peek_screen(tr: Translator, game: Game, seat: int) -> Screen:
    return Screen(title=tr("peek.title", seat=seat), lines=[tr("peek.hint")], seats=seat_strip(game, [seat]))


def guess_screen(tr: Translator, game: Game) -> Screen:
    """Trickster guesses: who may still guess is highlighted; never which way anyone guessed."""
    legal = game.legal()
    bidder, challenger = legal.guess_options
    lines = [tr("guess.hint", bidder=bidder, challenger=challenger), tr.for_seats("guess.waiting", legal.seats)]
    return Screen(title=tr("guess.title"), big=tr("guess.big"), lines=lines, seats=seat_strip(game, legal.seats))


# --- messages, verdict and the end ------------------------------------------------------------


#: A message part this short is drawn big (longer ones wrap in small type) ...
BIG_MESSAGE_CHARS = 16
#: ... under a title this short (a longer one would be cut on the title row).
TITLE_MESSAGE_CHARS = 18


def message_screen(text: str) -> Screen:
    """A short refusal or notice, inverted so it is seen from across the table.

    "Seat 4: not your turn" becomes the title "Seat 4" over a big "not your turn";
    a message that does not split that way is wrapped whole in small type.
    """
    title, _, rest = text.partition(": ")
    if rest and len(rest) <= BIG_MESSAGE_CHARS and len(title) <= TITLE_MESSAGE_CHARS:
        return Screen(title=title, big=rest, alert=True)
    return Screen(lines=[text], alert=True)


def verdict_screens(tr: Translator, game: Game, result: RoundResult, fingerprint: str, *, final: bool,
                    corrected: Correct | None = None) -> list[Screen]:
    """The verdict: a headline (total, bid, winner) then the explanation, paged; a verdict
    worked out again after a ``corrected`` card says so first."""
    score = result.score
    headline = Screen(
        title=tr("verdict.title", total=score.total, bid=score.bid),
        big=tr("verdict.winner", seat=result.winner),
        lines=[tr("verdict.loser", seat=result.loser)],
        seats=seat_strip(game, [result.winner]),
    )
    lines = explanation_lines(tr, result)
    if corrected is not None:
        lines.insert(0, tr.for_seats("expl.corrected", corrected.confirmed_by, item=item_name(tr, corrected.item),
                                     card=card_text(corrected.card)))
    lines.append(tr("verdict.correct_hint"))
    if not final:
        lines.append(tr("verdict.continue"))
    explained = Screen(title=tr("verdict.explain_title", round=result.round), lines=lines)
    return [headline, explained, fingerprint_screen(tr, fingerprint)]


def over_screens(tr: Translator, game: Game, fingerprint: str, *, offer_new_game: bool) -> list[Screen]:
    """The end: the winner, then the record's fingerprint, shown in turn until a new game."""
    if game.winner is None:
        raise RuntimeError("the game's end is shown before a seat has won")
    over = Screen(title=tr("over.title"), big=tr("over.big", seat=game.winner),
                  lines=[tr("over.hint")] if offer_new_game else [], seats=seat_strip(game, [game.winner]))
    return [over, fingerprint_screen(tr, fingerprint)]


def fingerprint_screen(tr: Translator, fingerprint: str) -> Screen:
    """The record's fingerprint in large type, two groups a line (one line of four is
    wider than the panel), and how to ask for its QR code."""
    groups = fingerprint.split("-")
    big = "\n".join("-".join(groups[i : i + 2]) for i in range(0, len(groups), 2))
    return Screen(title=tr("fingerprint.title"), big=big, lines=[tr("fingerprint.qr_hint")])


def qr_screen(digest: str) -> Screen:
    """The record's full last hash as a QR code for a phone, its fingerprint beside it."""
    return Screen(qr=game_record.fingerprint_qr(digest), lines=game_record.fingerprint(digest).split("-"))


# --- the web page ---------------------------------------------------------------------------


def address_screen(tr: Translator, url: str) -> Screen:
    """The web page's address as a QR code for a phone, and in text beside it."""
    return Screen(qr=url, lines=[url.removeprefix("http://").rstrip("/"), tr("web.address_hint")])


def no_page_screen(tr: Translator) -> Screen:
    """Instead of the address: the web page does not run there (another program may)."""
    return Screen(title=tr("web.no_page_title"), lines=[tr("web.no_page")])


def pin_screen(tr: Translator, pin: str) -> Screen:
    """A fresh PIN for the web page's setup and downloads, in two groups of three."""
    return Screen(title=tr("web.pin_title"), big=f"{pin[:3]} {pin[3:]}", lines=[tr("web.pin_hint")])


def wifi_screen(tr: Translator, ssid: str, password: str) -> Screen:
    """The device's own hotspot: a QR code a phone joins with (the ``WIFI:`` payload
    phones' cameras understand), and its name and key in text (ok goes on to the address)."""
    return Screen(qr=wifi_payload(ssid, password), lines=[tr("web.wifi_title"), ssid, password])


def wifi_payload(ssid: str, password: str) -> str:
    """``WIFI:T:WPA;S:<ssid>;P:<password>;;``, with ``\\ ; , : "`` escaped as the format asks."""
    def escaped(text: str) -> str:
        return "".join("\\" + c if c in '\\;,:"' else c for c in text)

    return f"WIFI:T:WPA;S:{escaped(ssid)};P:{escaped(password)};;"


#: The record problems the table waits on a person for, and what ok does then.
RECORD_PROBLEMS = {HoldKind.DAMAGED: "record.ok_go_on", HoldKind.UNRESUMABLE: "over.hint",
                   HoldKind.GONE: "over.hint", HoldKind.NOT_STARTED: "record.ok_retry"}


def record_screen(tr: Translator, problem: HoldKind, **params: object) -> Screen:
    """A record problem (a key of :data:`RECORD_PROBLEMS`): what happened and what ok does."""
    return Screen(title=tr(f"record.{problem}.title"), big=tr(RECORD_PROBLEMS[problem]),
                  lines=[tr(f"record.{problem}.hint", **params)], alert=True)


def unsaved_screen(tr: Translator, screen: Screen) -> Screen:
    """``screen`` while the record cannot be written: inverted, its title saying so."""
    return dataclasses.replace(screen, title=tr("record.unsaved"), alert=True)
