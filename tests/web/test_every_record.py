"""No page, transcript or download fails on a valid record: every record of the corpus
(tests/web/corpus.py, which holds every event type of the record format) through every
page of the history, the records page, the printable transcript and the zip, in every
language; and every event type through every describer (the engine's, the table's and
the page's words)."""

from __future__ import annotations

import io
import re
import zipfile
from typing import get_args

import pytest

from coyote_pi.engine import events
from coyote_pi.locale import LANGUAGES
from coyote_pi.table.play_by_play import describe
from coyote_pi.web import views
from coyote_pi.web.bulletin import Folders
from coyote_pi.web.texts import Texts
from coyote_pi.words.transcript import describe_event

from .conftest import PIN, Client, served, spectated
from .corpus import write_corpus

#: One event of each type of the record format, as the record would hold it once public.
EVERY_EVENT: list[events.Event] = [
    events.Deal({1: "4", 2: None}, centre="10", deck=("1", "2")), events.Bid(2, 17), events.Challenge(3),
    events.Peek(1), events.UseCoyoteCard(2), events.Guess(3, 1), events.Reveal("max0", "?", {2: "5"}),
    events.DrawReplacement("-10"), events.Undo(2), events.Correct("seat:2", "15", (1, 2)),
]


def test_the_sample_holds_every_event_type_of_the_record_format():
    assert {type(event) for event in EVERY_EVENT} == set(get_args(events.Event))


@pytest.mark.parametrize("event", EVERY_EVENT, ids=lambda event: events.type_name(event))
def test_every_describer_words_every_event(event):
    assert describe_event(event).strip()
    assert describe(event).strip()
    for language in LANGUAGES:
        text = views.event_text(Texts(language), event)
        assert text.strip() and "{" not in text


def test_every_record_of_the_corpus_through_every_page_transcript_and_download(tmp_path):
    for language in ("en", "ru"):
        names = write_corpus(tmp_path / language / "games")
        spectated(tmp_path / language, players=2, variant="basic", seed=3, language=language).set_pin(PIN)
        with served(Folders.beside(tmp_path / language / "games")) as port:
            client = Client(port)
            assert client.get("/history").status == 200
            assert client.get("/records").status == 200
            assert client.login().status == 303
            for name in names:
                game = client.get(f"/history/{name}")
                assert game.status == 200, (name, game.text[-500:])
                rounds = sorted(set(re.findall(rf'href="(/history/{name}/round/\d+)"', game.text)))
                assert rounds, name
                for path in rounds:
                    assert client.get(path).status == 200, path
                transcript = client.get(f"/records/{name}.txt")
                assert transcript.status == 200 and "Round 1" in transcript.text, name
                archive = client.get(f"/records/{name}.zip")
                assert archive.status == 200, name
                assert f"{name}/{name}.jsonl" in zipfile.ZipFile(io.BytesIO(archive.body)).namelist()
