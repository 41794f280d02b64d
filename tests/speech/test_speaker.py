"""The speech thread: a burst of bids says only the newest, a verdict is never dropped, the
controller's loop never waits, and a missing voice or a failing device is one log line."""

from __future__ import annotations

import logging
import stat
import threading
from pathlib import Path

from coyote_pi.engine import Deal
from coyote_pi.speech import sinks
from coyote_pi.speech.announcer import Kind
from coyote_pi.speech.sinks import AlsaSink, SoundError
from coyote_pi.speech.speaker import Speech
from coyote_pi.speech.voice import Espeak
from tests.speech.conftest import WAIT, HeldSink, TextVoice, bidding, challenged, dealt_game, moment, wait_idle


def test_a_burst_of_bids_speaks_only_the_newest(held: HeldSink) -> None:
    game = dealt_game()
    speech = Speech(held, TextVoice())
    speech.hear(moment(game))  # the baseline: round 1, seat 1 starts
    speech.hear(next(bidding(game, [5])))
    assert held.started.wait(WAIT)  # "Seat 1 bids 5" keeps the speaker busy...
    for later in bidding(game, range(6, 16)):  # ...while ten more bids are made
        speech.hear(later)
    held.release()
    wait_idle(speech)
    speech.close()
    assert [phrase.text for phrase in held.played] == [
        "Seat 1 bids 5", "Seat 2 bids 15", "Seat 3, your turn"]


def test_the_verdict_and_the_challenge_are_never_dropped(held: HeldSink) -> None:
    game = dealt_game()
    speech = Speech(held, TextVoice(), announce="bids")
    speech.hear(moment(game))
    moments = list(bidding(game, [5, 6, 7]))
    speech.hear(moments[0])
    assert held.started.wait(WAIT)
    for later in moments[1:]:
        speech.hear(later)
    speech.hear(challenged(game))  # every card was dealt known: the verdict comes at once
    assert game.last_result is not None
    held.release()
    wait_idle(speech)
    speech.close()
    kinds = [phrase.kind for phrase in held.played]
    assert kinds == [Kind.BID, Kind.CHALLENGE, Kind.VERDICT, Kind.EXPLANATION]
    assert held.played[1].text == "Coyote! Seat 1 challenges seat 3's 7"


class CutSink(HeldSink):
    """Holds the verdict's explanation after its first word, and keeps what each phrase played."""

    def __init__(self) -> None:
        super().__init__(hold=True)
        self.sounds: list[tuple[Kind, str]] = []

    def play(self, phrase, sound, chunks) -> None:
        played = b""
        for chunk in chunks:
            played += chunk
            if phrase.kind == Kind.EXPLANATION and not self.started.is_set():
                self.started.set()
                assert self._release.wait(WAIT)
        self.sounds.append((phrase.kind, played.decode().strip()))


def test_the_explanation_stops_when_the_game_goes_on() -> None:
    game, sink = dealt_game(), CutSink()
    speech = Speech(sink, TextVoice(), announce="bids")
    speech.hear(moment(game))
    list(bidding(game, [5]))
    speech.hear(challenged(game))  # the verdict at once, then its explanation
    assert sink.started.wait(WAIT)
    game.apply(Deal(seats={seat: str(seat + 4) for seat in game.active_seats}, centre="0"))
    speech.hear(next(bidding(game, [7])))
    assert game.round is not None
    bidder = game.round.bidder
    sink.release()
    wait_idle(speech)
    speech.close()
    assert [kind for kind, _ in sink.sounds] == [Kind.CHALLENGE, Kind.VERDICT, Kind.EXPLANATION, Kind.BID]
    assert sink.sounds[2] == (Kind.EXPLANATION, "Seat")  # cut after its first word
    assert sink.sounds[3] == (Kind.BID, f"Seat {bidder} bids 7")


def test_the_loop_never_waits_for_a_speaker_that_does_not_finish(held: HeldSink) -> None:
    game = dealt_game()
    speech = Speech(held, TextVoice())
    speech.hear(moment(game))
    assert held.started.wait(WAIT)
    heard = threading.Thread(target=lambda: [speech.hear(later) for later in bidding(game, range(5, 60))])
    heard.start()
    heard.join(WAIT)
    assert not heard.is_alive()  # 55 moments heard while the first phrase still plays
    held.release()
    speech.close(drain=True)


def test_a_missing_espeak_is_one_log_line_and_the_table_goes_on(caplog, tmp_path: Path) -> None:
    game = dealt_game()
    sink = HeldSink()
    speech = Speech(sink, Espeak(command=str(tmp_path / "espeak-ng")))
    with caplog.at_level(logging.INFO, logger="coyote_pi.speech"):
        speech.hear(moment(game))
        for later in bidding(game, range(5, 10)):
            speech.hear(later)
            wait_idle(speech)
        speech.close()
    assert sink.played == []
    assert [record.getMessage() for record in caplog.records] == [
        f"speech: {tmp_path / 'espeak-ng'} cannot be run (No such file or directory); the table plays on without speech"]


def test_a_sound_device_that_fails_is_one_log_line_until_it_plays_again(caplog) -> None:
    game = dealt_game()
    failing = AlsaSink("no-such-device")
    speech = Speech(failing, TextVoice())
    with caplog.at_level(logging.INFO, logger="coyote_pi.speech"):
        speech.hear(moment(game))
        for later in bidding(game, range(5, 9)):
            speech.hear(later)
            wait_idle(speech)
        assert len(caplog.records) == 1
        assert "the sound device no-such-device cannot play (" in caplog.records[0].getMessage()
        speech.sink = HeldSink()  # plugged in again
        speech.hear(next(bidding(game, [20])))
        wait_idle(speech)
        speech.close()
    assert [record.getMessage() for record in caplog.records][1:] == ["speech: the table speaks again"]


def test_a_sound_device_that_hangs_is_given_up(monkeypatch, tmp_path: Path) -> None:
    hangs = tmp_path / "aplay"
    hangs.write_text("#!/bin/sh\nexec sleep 60\n")
    hangs.chmod(hangs.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setattr(sinks, "CLOSE_SECONDS", 0.2)
    from coyote_pi.speech.announcer import Phrase

    try:
        AlsaSink(command=str(hangs)).play(Phrase(Kind.BID, "Seat 1 bids 5", "en"), TextVoice.sound, [b"\0\0" * 100])
    except SoundError as error:
        assert str(error) == "the sound device default does not play (no answer)"
    else:
        raise AssertionError("a hung device was waited for")
