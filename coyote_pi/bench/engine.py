"""Engine speed: simulated games per second, microseconds per resolution and per odds
query, and the replay of a long evening's record.

Everything runs in this one process on one core (the engine is pure Python and
single-threaded). Targets on one core of the development machine: at least 1,000 full
4-player games per second, an odds query in at most 2 ms, and a 2,000-line record with
100 undos replayed (``coyote-pi replay``, ``run`` resuming) in under 0.5 s, its time per
line at most 1.5 times that of a record of the same length without undos: an undo must
cost no more than any other line.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

TARGET_GAMES_PER_S = 1000
TARGET_ODDS_MS = 2.0
REPLAY_LINES, REPLAY_UNDOS = 2000, 100
TARGET_REPLAY_S = 0.5
TARGET_UNDO_RATIO = 1.5


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=400, help="games per variant (default 400)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="optional time box per measurement instead of fixed counts")


def _rate(work, count: int) -> float:
    """Seconds per unit of ``work(i)`` over ``count`` runs, best of three passes."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for i in range(count):
            work(i)
        best = min(best, (time.perf_counter() - start) / count)
    return best


def run(args: argparse.Namespace) -> int:
    from coyote_pi import cards as C
    from coyote_pi.engine.game import BASIC, TRICKSTER, GameConfig
    from coyote_pi.engine.odds import total_distribution
    from coyote_pi.engine.players import simulate
    from coyote_pi.engine.rules import score

    print("coyote-pi bench engine (one core, pure Python)")
    for variant in (BASIC, TRICKSTER):
        config = GameConfig(players=4, variant=variant)
        per_game = _rate(lambda i: simulate(config, f"bench:{i}"), args.games)
        games = 1 / per_game
        mark = "ok" if games >= TARGET_GAMES_PER_S else "BELOW TARGET"
        print(f"  full 4-player games, {variant:9}: {games:8.0f} games/s   "
              f"(target >= {TARGET_GAMES_PER_S}: {mark})")

    rng = random.Random("bench-hands")
    hands = []
    for _ in range(1000):
        deck = rng.sample(C.ALL_CARDS, 17)
        hands.append((deck[:5], rng.randint(0, 30), deck[5]))
    per_score = _rate(lambda i: score(hands[i][0], hands[i][1], hands[i][2] if "?" in hands[i][0] else None), 1000)
    print(f"  challenge resolution (5 cards):  {per_score * 1e6:8.1f} us")

    views = [(rng.sample(C.ALL_CARDS, 3), 2) for _ in range(200)]
    per_odds = _rate(lambda i: total_distribution(*views[i]), len(views))
    mark = "ok" if per_odds * 1e3 <= TARGET_ODDS_MS else "ABOVE TARGET"
    print(f"  odds query, 4 players (3 seen, 2 unknown): {per_odds * 1e6:8.1f} us   "
          f"(target <= {TARGET_ODDS_MS * 1000:.0f} us: {mark})")
    worst = [(rng.sample(C.ALL_CARDS, 1), 3) for _ in range(50)]
    per_worst = _rate(lambda i: total_distribution(*worst[i]), len(worst))
    print(f"  odds query, worst case (2 players, Coyote-card draw unseen): {per_worst * 1e6:8.1f} us")
    _bench_replay()
    return 0


def _bench_replay() -> None:
    """Replay two records of the same length, with and without undos, taking turns (so a
    busy machine slows both alike), best of five each."""
    from coyote_pi.engine.players import long_bidding_game
    from coyote_pi.record import encode_record, read_record

    best = {}
    with tempfile.TemporaryDirectory() as folder:
        paths = {}
        for undos in (0, REPLAY_UNDOS):
            config, events = long_bidding_game(REPLAY_LINES, undos)
            paths[undos] = Path(folder) / f"evening-{undos}-undos.jsonl"
            paths[undos].write_bytes(encode_record(config, events, clock=lambda: "2026-11-21T19:00:00.000Z"))
        for _ in range(5):
            for undos, path in paths.items():
                start = time.perf_counter()
                read_record(path)
                best[undos] = min(best.get(undos, float("inf")), time.perf_counter() - start)
    seconds, ratio = best[REPLAY_UNDOS], best[REPLAY_UNDOS] / best[0]
    mark = "ok" if seconds < TARGET_REPLAY_S else "ABOVE TARGET"
    print(f"  replay of a {REPLAY_LINES:,}-line record with {REPLAY_UNDOS} undos: {seconds:8.3f} s   "
          f"(target < {TARGET_REPLAY_S} s: {mark})")
    mark = "ok" if ratio <= TARGET_UNDO_RATIO else "ABOVE TARGET"
    print(f"  time per line against the same length without undos ({best[0]:.3f} s): {ratio:8.2f} x   "
          f"(target <= {TARGET_UNDO_RATIO}: {mark})")
