"""The table with its speech: a sound device that cannot play leaves the table playing
with one log line, and a speaker that never finishes never holds the game up."""

from __future__ import annotations

import logging
from pathlib import Path

from coyote_pi.speech.sinks import AlsaSink
from coyote_pi.speech.speaker import Speech
from coyote_pi.speech.voice import Espeak
from tests.speech.conftest import HeldSink
from tests.table.conftest import fast_sim, play, table_config


def test_a_game_on_a_failing_sound_device_plays_to_its_end_with_one_log_line(caplog, tmp_path: Path) -> None:
    speech = Speech(AlsaSink("no-such-device"), Espeak())
    with caplog.at_level(logging.INFO, logger="coyote_pi.speech"):
        played = play(table_config(tmp_path, 3), sim=fast_sim(4), speech=speech)
    assert played.record.game.winner is not None
    assert len(caplog.records) == 1
    assert caplog.records[0].getMessage().startswith("speech: the sound device no-such-device cannot play (")


def test_a_speaker_stuck_in_its_first_phrase_never_holds_the_game_up(tmp_path: Path) -> None:
    stuck = HeldSink(hold=True)
    speech = Speech(stuck, Espeak())
    played = play(table_config(tmp_path, 3, "trickster"), sim=fast_sim(5), speech=speech, timeout=60)
    assert played.record.game.winner is not None
    assert stuck.started.is_set() and stuck.played == []  # the whole game went by during "Round 1..."
    stuck.release()
