"""The reviews the page keeps over its restarts (web/reviews.py): in its own folder, never
beside the record, reused only for exactly the record bytes they were made from, a bad
file ignored and replaced, the folder pruned and bounded, and a folder that cannot be
written costing only the time of a review made again."""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from coyote_pi.engine import events
from coyote_pi.record import read_record
from coyote_pi.web import reviews
from coyote_pi.web.bulletin import Folders
from coyote_pi.web.games import Games
from tests.web.conftest import Client, served, spectated
from tests.web.test_review_pages import REVIEWED, every_page


@pytest.fixture
def children(monkeypatch) -> list[str]:
    """The records a child process reviewed, in order (each call still runs the real child)."""
    made: list[str] = []
    real = reviews.review_of

    def counted(path):
        made.append(path.name)
        return real(path)

    monkeypatch.setattr(reviews, "review_of", counted)
    return made


def _no_child(path):
    raise AssertionError(f"{path.name} was reviewed again: the kept review was not used")


def _finished(tmp_path, seed: int = 4):
    game = spectated(tmp_path, players=3, variant="basic", seed=seed)
    game.play_to_end()
    return game


def test_a_review_is_kept_in_the_pages_folder_and_used_after_a_restart(tmp_path, folders, children, monkeypatch):
    game = _finished(tmp_path)
    records_before = sorted(folders.records.rglob("*"))
    first = Games(folders.records, folders.reviews).review("game-0001")
    assert first is not None and children == ["game-0001.jsonl"]
    kept = json.loads((folders.reviews / "game-0001.review.json").read_bytes())
    assert kept["sha256"] == hashlib.sha256(game.path.read_bytes()).hexdigest() and kept["review"] == first
    assert sorted(folders.records.rglob("*")) == records_before  # nothing beside the record
    monkeypatch.setattr(reviews, "review_of", _no_child)  # a new page process: only the kept review can answer
    assert Games(folders.records, folders.reviews).review("game-0001") == first


def test_the_page_keeps_its_reviews_beside_its_requests_unless_told(tmp_path):
    assert Folders.beside(tmp_path / "games").reviews == tmp_path / "reviews"
    assert Folders.beside(tmp_path / "games", requests=tmp_path / "page" / "requests").reviews == tmp_path / "page" / "reviews"
    assert Folders.beside(tmp_path / "games", reviews=tmp_path / "elsewhere").reviews == tmp_path / "elsewhere"


def test_a_game_in_progress_is_reviewed_again_once_its_record_grew(tmp_path, folders, children):
    game = spectated(tmp_path, players=4, variant="trickster", seed=11)
    game.play_until(lambda g, event: g.round_number == 2 and isinstance(event, events.Bid))
    assert Games(folders.records, folders.reviews).review("game-0001") is not None
    assert Games(folders.records, folders.reviews).review("game-0001") is not None  # same bytes: kept
    assert children == ["game-0001.jsonl"]
    game.play_until(lambda g, event: g.round_number == 3)  # round 2 closed, round 3 dealt
    review = Games(folders.records, folders.reviews).review("game-0001")
    assert children == ["game-0001.jsonl"] * 2
    assert {decision["round"] for decision in review["decisions"]} == {1, 2}
    kept = json.loads((folders.reviews / "game-0001.review.json").read_bytes())
    assert kept["sha256"] == hashlib.sha256(game.path.read_bytes()).hexdigest()


def test_a_game_in_progress_gets_no_judgement_of_its_open_round_from_the_kept_reviews(tmp_path, folders, monkeypatch):
    game = spectated(tmp_path, players=4, variant="trickster", seed=11)
    game.play_until(lambda g, event: g.round_number == 3 and isinstance(event, events.Bid))
    sealed_at = read_record(game.path).open_round.first_line
    with served(folders) as port:
        every_page(Client(port), "game-0001", 3)  # the review is made and kept
    kept_file = folders.reviews / "game-0001.review.json"
    kept = json.loads(kept_file.read_bytes())
    assert kept["review"]["decisions"] and all(d["line"] < sealed_at for d in kept["review"]["decisions"])
    with monkeypatch.context() as patched:
        patched.setattr(reviews, "review_of", _no_child)
        with served(folders) as port:  # a restarted page: the kept review alone answers
            pages = every_page(Client(port), "game-0001", 3)
    judged = [int(line) for text in pages.values() for line in REVIEWED.findall(text)]
    assert judged, "no judgement at all: the check would pass vacuously"
    assert all(line < sealed_at for line in judged)
    # The same game played on elsewhere to its end: its review judges round 3. Kept under
    # the game in progress's name, it is never used: it was made from other bytes.
    later = spectated(tmp_path / "later", players=4, variant="trickster", seed=11)
    later.play_to_end()
    later_review = Games(later.path.parent, tmp_path / "later" / "reviews").review("game-0001")
    assert any(decision["round"] == 3 for decision in later_review["decisions"])
    kept_file.write_text(json.dumps(kept | {"sha256": hashlib.sha256(later.path.read_bytes()).hexdigest(),
                                            "review": later_review}))
    review = Games(folders.records, folders.reviews).review("game-0001")
    assert review["decisions"] and all(decision["line"] < sealed_at for decision in review["decisions"])
    assert json.loads(kept_file.read_bytes())["sha256"] == hashlib.sha256(game.path.read_bytes()).hexdigest()


@pytest.mark.parametrize("content", [b"{not json", b"[]", b"\xff\xfe", b'{"version": 99}',
                                     b"{}" + b" " * reviews.CACHE_FILE_LIMIT],
                         ids=["torn", "a list", "not utf-8", "another version", "too large"])
def test_a_bad_kept_review_is_ignored_and_replaced(tmp_path, folders, children, content):
    _finished(tmp_path)
    folders.reviews.mkdir()
    kept_file = folders.reviews / "game-0001.review.json"
    kept_file.write_bytes(content)
    review = Games(folders.records, folders.reviews).review("game-0001")
    assert review is not None and children == ["game-0001.jsonl"]
    assert json.loads(kept_file.read_bytes())["review"] == review


def test_a_kept_review_of_another_record_is_not_used(tmp_path, folders, children):
    _finished(tmp_path)
    Games(folders.records, folders.reviews).review("game-0001")
    kept = json.loads((folders.reviews / "game-0001.review.json").read_bytes())
    (folders.reviews / "game-0002.review.json").write_text(json.dumps(kept))  # its record is game-0001.jsonl
    (folders.records / "game-0002.jsonl").write_bytes((folders.records / "game-0001.jsonl").read_bytes())
    Games(folders.records, folders.reviews).review("game-0002")
    assert children == ["game-0001.jsonl", "game-0002.jsonl"]


def test_a_folder_that_cannot_be_written_does_not_break_the_page(tmp_path, children, capfd):
    _finished(tmp_path)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    folders = Folders.beside(tmp_path / "games", reviews=blocker / "reviews")  # mkdir fails: a file is in the way
    with served(folders) as port:
        client = Client(port)
        for _ in range(2):
            page = client.get("/history/game-0001/round/1")
            assert page.status == 200 and REVIEWED.findall(page.text)
    assert children == ["game-0001.jsonl"]  # kept in memory while the page runs
    said = capfd.readouterr().err
    assert said.count("cannot keep reviews in") == 1


def test_the_reviews_of_records_gone_and_the_oldest_beyond_the_bound_are_pruned(tmp_path, folders, monkeypatch):
    monkeypatch.setattr(reviews, "CACHE_ENTRIES", 2)
    monkeypatch.setattr(reviews, "review_of", lambda path: {"of": path.name})
    folders.records.mkdir(parents=True)
    folders.reviews.mkdir()
    for number in range(1, 5):
        (folders.records / f"game-000{number}.jsonl").write_text(f"{number}\n")
    stranger = folders.reviews / "notes.txt"  # not the cache's: left alone
    stranger.write_text("")
    (folders.reviews / "game-0009.review.json").write_text("{}")  # its record is gone
    (folders.reviews / "game-0001.review.json.tmp").write_text("{")  # a killed write's temporary
    cache = reviews.ReviewCache(folders.reviews, folders.records)
    for number, when in ((1, 1000), (2, 3000), (3, 2000)):
        cache.review(f"game-000{number}")
        os.utime(folders.reviews / f"game-000{number}.review.json", ns=(when, when))  # made then
    assert sorted(p.name for p in folders.reviews.iterdir()) == [
        "game-0002.review.json", "game-0003.review.json", "notes.txt"]
    (folders.records / "game-0002.jsonl").unlink()
    cache.review("game-0004")
    assert sorted(p.name for p in folders.reviews.iterdir()) == [
        "game-0003.review.json", "game-0004.review.json", "notes.txt"]
