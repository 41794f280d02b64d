"""What each page shows, as plain data: the templates render it, and the table page's
model is also what every server-sent event carries (docs/web.md, "Messages").

Cards appear only in ``cards`` lists of ``{"item", "card", "round"}``, and only for
closed rounds: the page takes a round from the record only once its resolution is
there, and ``live.json``'s public view holds no card of an open round. The HTML marks
each card the same way (``data-card``, ``data-round``), so a test can check every card
the page ever shows against the round in play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, assert_never

from coyote_pi.engine import events
from coyote_pi.engine.game import RoundResult
from coyote_pi.json_text import JsonObject
from coyote_pi.players import TABLE_LEVELS
from coyote_pi.review import texts as review_texts
from coyote_pi.web.bulletin import Live
from coyote_pi.web.games import Games, Step, percent, photos_by_round
from coyote_pi.web.texts import Texts
from coyote_pi.words.translator import card_text
from coyote_pi.words.verdict import explanation_lines, item_name


def cards_of(texts: Texts, result: RoundResult) -> list[JsonObject]:
    """The cards of a closed round's verdict, each tagged with its round."""
    cards = [{"item": f"seat:{seat}", "card": card} for seat, card in sorted(result.seat_cards.items())]
    cards.append({"item": "centre", "card": result.centre})
    if result.extra is not None:
        cards.append({"item": "extra", "card": result.extra})
    if result.score.replacement is not None:
        cards.append({"item": "draw", "card": result.score.replacement})
    return [card_model(texts, card["item"], card["card"], result.round) for card in cards]


def card_model(texts: Texts, item: str, card: str, round_number: int) -> JsonObject:
    """A card where it lay (``seat:2``, ``centre``, ...) in a closed round, with its words."""
    return {"item": item, "card": card, "round": round_number, "label": item_name(texts, item),
            "text": card_text(card)}


def verdict(texts: Texts, game: str, result: RoundResult, photos: list[tuple[str, str]],
            corrected: events.Correct | None = None) -> JsonObject:
    """A closed round's verdict: headline figures, the explanation line by line, its cards
    and photos (``photos``: file name and the type of the line that took it, which names
    what it shows: the reveal, or the card drawn for ``?``)."""
    lines = explanation_lines(texts, result)
    if corrected is not None:
        lines.insert(0, correction_words(texts, corrected))
    return {"round": result.round, "total": result.score.total, "bid": result.score.bid, "winner": result.winner,
            "loser": result.loser, "lines": lines, "cards": cards_of(texts, result),
            "photos": [{"url": f"/photos/{game}/{name}",
                        "caption": texts("table.photo_draw") if kind == "draw" else texts("table.photo")}
                       for name, kind in photos],
            "url": f"/history/{game}/round/{result.round}"}


def correction_words(texts: Texts, correction: events.Correct) -> str:
    """"Corrected by seats 1 and 3: the centre card is 5", as the OLED says it."""
    return texts.for_seats("expl.corrected", correction.confirmed_by, item=item_name(texts, correction.item),
                           card=card_text(correction.card))


def round_line(texts: Texts, result: RoundResult) -> str:
    return texts("table.round_line", round=result.round, challenger=result.challenger, bidder=result.bidder,
                 bid=result.score.bid, total=result.score.total, winner=result.winner)


def level_word(texts: Texts, level: str) -> str:
    """A virtual player's level in the page's language (a baseline level by its name)."""
    return texts(f"level.{level}") if level in TABLE_LEVELS else level


def virtual_model(texts: Texts, seats: tuple[tuple[int, str], ...]) -> dict[int, str]:
    """The virtual seats as the page marks them: seat -> ``virtual (strong)``."""
    return {seat: texts("table.virtual", level=level_word(texts, level)) for seat, level in seats}


def table_model(live: Live, games: Games) -> JsonObject:
    """The table page: the seats, the round in play (public only), the last verdict, the game so far."""
    texts = Texts(live.language)
    public = live.public or {}
    model: dict[str, Any] = {"seq": live.seq, "running": live.running, "language": texts.language, "stage": live.stage,
             "round_open": live.round_open, "between_games": live.between_games, "camera": live.camera,
             "players": live.players, "variant": live.variant, "round": public.get("round"),
             "phase": public.get("phase"), "turn": public.get("turn"), "bid": public.get("bid"),
             "bidder": public.get("bidder"), "challenger": public.get("challenger"),
             "coyote_holder": public.get("coyote_holder"), "winner": public.get("winner"),
             "bids": [{"seat": seat, "amount": amount} for seat, amount in _pairs(public.get("bids"))],
             "screen": _screen(live.screen), "log": _log(live), "seats": [], "verdict": None,
             "game": None}
    active = set(public.get("active") or ())
    peeked = set(public.get("peeked") or ())
    virtual = virtual_model(texts, live.virtual)
    for seat_key, eyes in sorted((public.get("eyes") or {}).items(), key=lambda item: int(item[0])):
        seat = int(seat_key)
        model["seats"].append({"seat": seat, "open": eyes[0], "closed": eyes[1], "active": seat in active,
                               "turn": seat == model["turn"], "bidder": seat == model["bidder"],
                               "challenger": seat == model["challenger"], "peeked": seat in peeked,
                               "coyote": seat == model["coyote_holder"], "virtual": virtual.get(seat)})
    name = live.game
    loaded = games.load(name) if name else None
    if name and loaded is not None and loaded.record is not None:
        record = loaded.record
        results = _last_per_round(record.game.results)
        model["game"] = {"name": name, "fingerprint": loaded.summary.fingerprint, "lines": loaded.summary.lines,
                         "rounds": [{"round": r.round, "text": round_line(texts, r),
                                     "url": f"/history/{name}/round/{r.round}"} for r in results]}
        if results and not live.round_open and record.open_round is None:
            last = results[-1]
            model["verdict"] = verdict(texts, name, last, photos_by_round(record).get(last.round, []),
                                       _correction(record.game.history))
    return model


def _correction(history: Sequence[events.Event]) -> events.Correct | None:
    """The correction of the last round's verdict, if one was made (it follows the round's last deal)."""
    since_deal = history[max((i for i, e in enumerate(history) if isinstance(e, events.Deal)), default=0):]
    return next((e for e in reversed(since_deal) if isinstance(e, events.Correct)), None)


def _last_per_round(results: list[RoundResult]) -> list[RoundResult]:
    """Each round's verdict as it stands (a correction's verdict replaces the first)."""
    latest: dict[int, RoundResult] = {}
    for result in results:
        latest[result.round] = result
    return [latest[number] for number in sorted(latest)]


def _log(live: Live) -> list[str]:
    """The table's play-by-play lines: the device writes them in English (they are its
    journal too), so a page in another language leaves them out rather than mix languages;
    its bids, screen and verdicts say the same in the table's language."""
    return list(live.log) if live.language == "en" else []


def _pairs(bids: Any) -> list[tuple[int, int]]:  # bids: a JSON value as live.json holds it
    return [(b[0], b[1]) for b in bids or () if isinstance(b, list) and len(b) == 2]


def _screen(screen: JsonObject | None) -> JsonObject | None:
    if not screen:
        return None
    lines = [line for line in screen.get("lines") or () if isinstance(line, str)]
    page = screen.get("page") if isinstance(screen.get("page"), list) else None
    return {"title": str(screen.get("title") or ""), "big": str(screen.get("big") or ""), "lines": lines,
            "page": page}


def event_text(texts: Texts, event: events.Event) -> str:
    """A line of a closed round in the table's language: every event the record holds, each
    in its own branch (its cards are shown beside it, :func:`step_model`)."""
    match event:
        case events.Deal():
            return texts("step.deal")
        case events.Bid():
            return texts("table.bid", seat=event.seat, amount=event.amount)
        case events.Challenge():
            return texts("table.challenged", seat=event.seat)
        case events.Peek():
            return texts("peek.title", seat=event.seat)
        case events.UseCoyoteCard():
            return texts("step.coyote_card", seat=event.seat)
        case events.Guess():
            return texts("step.guess", seat=event.seat, winner=event.winner)
        case events.Reveal():
            return texts("step.reveal")
        case events.DrawReplacement():
            return texts("item.draw")
        case events.Undo():
            return texts("step.undo", seat=event.seat)
        case events.Correct():
            return correction_words(texts, event)
        case _:
            assert_never(event)


def step_model(texts: Texts, step: Step, round_number: int) -> JsonObject:
    """One line of a closed round, for the history page."""
    return {"line": step.line, "time": step.time[11:19], "type": step.type, "text": event_text(texts, step.event),
            "seat": step.seat, "amount": step.amount, "undone": step.undone,
            "odds": percent(step.odds) if step.odds is not None else None, "photo": step.photo,
            "cards": [card_model(texts, item, card, round_number) for item, card in step.cards.items()]}


def judgement_models(texts: Texts, review: JsonObject | None, round_number: int) -> dict[int, JsonObject]:
    """The review of a closed round's decisions by record line: the move the review prefers,
    the mark of the move played and a certainty, worded (docs/review.md)."""
    if review is None:
        return {}
    return {judgement["line"]: {
        "best": review_texts.move_text(texts, judgement["best"]),
        "mark": judgement["mark"],
        "mark_text": review_texts.mark_text(texts, judgement["mark"]) if judgement["mark"] else None,
        "text": review_texts.judgement_head(texts, judgement),
        "certain": review_texts.certainty_text(texts, judgement),
    } for judgement in review["decisions"] if judgement["round"] == round_number}


def review_summary_model(texts: Texts, review: JsonObject | None, rounds: set[int]) -> JsonObject | None:
    """The game page's review: a line per seat and the decision that lost each closed round."""
    if review is None or not review["decisions"]:
        return None
    return {"seats": [review_texts.summary_text(texts, summary) for summary in review["seats"]],
            "losses": [review_texts.loss_text(texts, loss) for loss in review["rounds_lost"] if loss["round"] in rounds],
            "legend": texts("review.legend"), "thresholds": review_texts.thresholds_text(texts, review["thresholds"])}
