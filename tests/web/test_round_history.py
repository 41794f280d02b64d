"""The page's round history is told by a visitor of the record's one reader: a corrected
verdict (once an HTTP 500), undone bids and sealed guesses come out as the record holds them."""

from __future__ import annotations

import html
import re
import zipfile

from coyote_pi.engine import events
from coyote_pi.record import read_record
from coyote_pi.web.games import Games
from tests.web.conftest import Client, served, spectated


def _corrected_game(tmp_path):
    """A finished 3-player Trickster game whose first verdict was corrected (its centre card)."""
    game = spectated(tmp_path, players=3, variant="trickster", seed=5)
    game.play_until(lambda g, event: bool(g.results))
    last = game.game.last_result
    right = next(card for card in ("-10", "-5", "0", "1", "2", "3") if card not in
                 (*last.seat_cards.values(), last.centre, last.extra, last.score.replacement))
    game.table.apply(events.Correct("centre", right, tuple(sorted((last.bidder, last.challenger)))))
    game.publish()
    game.play_to_end()
    return game


def test_a_corrected_round_is_told_with_both_verdicts_on_the_page_in_the_transcript_and_the_archive(tmp_path, folders):
    game = _corrected_game(tmp_path)
    games = Games(folders.records)
    first = games.stories("game-0001")[0]
    assert [step.type for step in first.steps][-1] == "correct"
    assert len(first.results) == 2 and first.corrections[0].item == "centre"
    assert first.results[1].to_dict() == read_record(game.path).game.results[1].to_dict()
    transcript = games.transcript("game-0001")
    assert "correction: the centre card is" in transcript and transcript.count("verdict of round 1:") == 2
    with zipfile.ZipFile(games.archive("game-0001")) as archive:
        assert "correction: the centre card is" in archive.read("game-0001/game-0001.txt").decode("utf-8")
    with served(folders) as port:
        client = Client(port)
        assert client.get("/history/game-0001").status == 200
        for number in range(1, game.game.round_number + 1):
            assert client.get(f"/history/game-0001/round/{number}").status == 200, number


def test_a_verdict_a_correction_replaced_says_so_and_by_which_correction(tmp_path, folders):
    game = _corrected_game(tmp_path)
    correction = next(number for number, line in enumerate(read_record(game.path).lines, start=1)
                      if line.get("event", {}).get("type") == "correct")
    with served(folders) as port:
        page = Client(port).get("/history/game-0001/round/1").text
    titles = re.findall(r'<section class="verdict[^"]*" data-verdict-round="1">\s*<h2>([^<]*)</h2>', page)
    assert titles == ["Verdict of round 1, replaced", "Verdict of round 1"]
    replaced = re.search(r'<section class="verdict replaced".*?</section>', page, re.S).group(0)
    notice = html.unescape(re.search(r'<p class="notice">(.*?)</p>', replaced).group(1))
    right = game.game.results[1].centre
    assert re.fullmatch(rf"Replaced by the verdict after the correction at line {correction}: Corrected by seats "
                        rf"\d, \d: Centre is {right}", notice), notice


def test_every_line_of_every_closed_round_is_told_once_in_order(tmp_path, folders):
    game = spectated(tmp_path, players=4, variant="trickster", seed=11)
    game.play_until(lambda g, event: g.round_number == 3 and isinstance(event, events.Bid))
    stories = Games(folders.records).stories("game-0001")
    record = read_record(game.path)
    told = [step.line for story in stories for step in story.steps]
    events_before_open = [number for number, line in enumerate(record.lines, start=1)
                          if line["kind"] in ("action", "observation") and number < record.open_round.first_line]
    assert told == events_before_open  # round 3 is open: sealed, so not told
    assert [story.number for story in stories] == [1, 2]
    guesses = [step for story in stories for step in story.steps if step.type == "guess"]
    assert guesses and all(step.winner is not None for step in guesses)  # opened from the opening line
