"""Helpers of the speech's tests: a voice that needs no espeak-ng, a sink that holds a
phrase until the test lets it go, and a game's public moments."""

from __future__ import annotations

import threading
from collections.abc import Generator, Iterable, Iterator

import pytest

from coyote_pi import cards
from coyote_pi.engine import Bid, Challenge, Deal, Game, GameConfig
from coyote_pi.speech.announcer import Phrase
from coyote_pi.speech.moment import Moment, public_moment
from coyote_pi.speech.speaker import Speech
from coyote_pi.speech.voice import Sound

#: How long a test waits for the speech thread (it never needs as long).
WAIT = 10.0


class TextVoice:
    """A voice whose sound is its text's bytes, word by word (the speaker's logic without
    espeak-ng)."""

    sound = Sound()

    def speak(self, text: str, language: str) -> Generator[bytes]:
        for word in text.split(" "):
            yield word.encode() + b" "


class HeldSink:
    """Keeps every phrase it plays; while :attr:`hold` is set, the first phrase waits for
    :meth:`release` (a slow speaker, while the game goes on)."""

    def __init__(self, *, hold: bool = False) -> None:
        self.played: list[Phrase] = []
        self.started = threading.Event()
        self._release = threading.Event()
        if not hold:
            self._release.set()

    def play(self, phrase: Phrase, sound: Sound, chunks: Iterable[bytes]) -> None:
        b"".join(chunks)
        self.started.set()
        assert self._release.wait(WAIT), "the test never let the sink go"
        self.played.append(phrase)

    def release(self) -> None:
        self._release.set()


def dealt_game(players: int = 3) -> Game:
    """A basic game with its first round dealt: seat 1 starts."""
    game = Game(GameConfig(players))
    deck = cards.ALL_CARDS
    game.apply(Deal(seats={seat: deck[seat] for seat in range(1, players + 1)}, centre=deck[0]))
    return game


def moment(game: Game) -> Moment:
    return public_moment("turn", "en", game)


def bidding(game: Game, amounts: Iterable[int]) -> Iterator[Moment]:
    """The moments of ``amounts`` bid by the seats in turn."""
    for amount in amounts:
        assert game.turn is not None
        game.apply(Bid(game.turn, amount))
        yield moment(game)


def challenged(game: Game) -> Moment:
    assert game.turn is not None
    game.apply(Challenge(game.turn))
    return moment(game)


def wait_idle(speech: Speech) -> None:
    """Until the speech thread has said all it heard."""
    done = threading.Event()

    def check() -> None:
        while not speech.idle():
            if done.wait(0.01):
                return
        done.set()

    watcher = threading.Thread(target=check, daemon=True)
    watcher.start()
    watcher.join(WAIT)
    done.set()
    assert speech.idle(), "the speech thread did not finish"


@pytest.fixture
def held() -> HeldSink:
    return HeldSink(hold=True)
