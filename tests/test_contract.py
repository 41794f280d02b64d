"""The names the table and its page share are one set: what the table writes, the page takes."""

from __future__ import annotations

from coyote_pi.contract import records
from coyote_pi.engine import GameConfig
from coyote_pi.table.store import RecordStore
from coyote_pi.web.bulletin import Folders


def test_the_page_finds_every_record_the_table_writes(tmp_path):
    store = RecordStore(tmp_path / "games")
    first = store.create(GameConfig(players=2), meta={})
    second = store.create(GameConfig(players=2), meta={})
    first.close()
    second.close()
    assert [path.name for path in store.paths()] == ["game-0001.jsonl", "game-0002.jsonl"]
    folders = Folders.beside(tmp_path / "games")
    assert folders.record("game-0002") == second.path
    assert (folders.bulletin.name, folders.requests.name) == (records.BULLETIN_FOLDER, records.REQUESTS_FOLDER)


def test_names_that_are_not_records_are_refused():
    for name in ("game-7.jsonl", "game-0007.json", "game-0007.jsonl.torn", "game-1234567.jsonl", "../game-0007.jsonl"):
        assert records.record_number(name) is None, name
    assert records.record_number("game-123456.jsonl") == 123456
    assert records.record_file(123456) == "game-123456.jsonl"
