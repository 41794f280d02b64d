"""``coyote-pi bench TARGET``: speed and memory figures, measured side by side in one run.

Targets are never asserted by timed unit tests (CI machines are shared and noisy); each
benchmark prints its figures, the targets they are meant to meet, and the ratios between
paths measured in the same run. The measuring is done by :mod:`coyote_pi.bench`; only
the chosen target's module is imported (see :func:`run`).
"""

from __future__ import annotations

import argparse
import importlib
import resource
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from coyote_pi.cli import help_parser
from coyote_pi.engine.game import BASIC, TRICKSTER

if TYPE_CHECKING:
    from coyote_pi.bench.photos import CurveRow
    from coyote_pi.bench.players import Result
    from coyote_pi.bench.vision import PathResult


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", choices=TARGETS, help="what to measure")
    parser.add_argument("options", nargs=argparse.REMAINDER, help="the target's own options (see TARGET --help)")


def run(args: argparse.Namespace) -> int:
    configure_target, report = TARGETS[args.target]
    # Only the chosen target's module is imported: bench table measures the memory of a
    # table before this process loads OpenCV, which bench vision's module loads at once.
    measures = importlib.import_module(MODULES.get(args.target, f"coyote_pi.bench.{args.target}"))
    parser = help_parser(f"coyote-pi bench {args.target}", measures.__doc__)
    configure_target(parser)
    report(measures, parser.parse_args(args.options))
    return 0


# -- bench engine ---------------------------------------------------------------------------


def _configure_engine(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=400, help="games per variant (default 400)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="optional time box per measurement instead of fixed counts")


def _report_engine(engine: ModuleType, args: argparse.Namespace) -> None:
    print("coyote-pi bench engine (one core, pure Python)")
    for variant in (BASIC, TRICKSTER):
        games = engine.games_per_second(variant, args.games)
        mark = "ok" if games >= engine.TARGET_GAMES_PER_S else "BELOW TARGET"
        print(f"  full 4-player games, {variant:9}: {games:8.0f} games/s   "
              f"(target >= {engine.TARGET_GAMES_PER_S}: {mark})")
    times = engine.rules_times()
    print(f"  challenge resolution (5 cards):  {times.score * 1e6:8.1f} us")
    mark = "ok" if times.odds * 1e3 <= engine.TARGET_ODDS_MS else "ABOVE TARGET"
    print(f"  odds query, 4 players (3 seen, 2 unknown): {times.odds * 1e6:8.1f} us   "
          f"(target <= {engine.TARGET_ODDS_MS * 1000:.0f} us: {mark})")
    print(f"  odds query, worst case (2 players, Coyote-card draw unseen): {times.worst_odds * 1e6:8.1f} us")
    best = engine.replay_seconds()
    seconds, plain = best[engine.REPLAY_UNDOS], best[0]
    ratio = seconds / plain
    mark = "ok" if seconds < engine.TARGET_REPLAY_S else "ABOVE TARGET"
    print(f"  replay of a {engine.REPLAY_LINES:,}-line record with {engine.REPLAY_UNDOS} undos: {seconds:8.3f} s   "
          f"(target < {engine.TARGET_REPLAY_S} s: {mark})")
    mark = "ok" if ratio <= engine.TARGET_UNDO_RATIO else "ABOVE TARGET"
    print(f"  time per line against the same length without undos ({plain:.3f} s): {ratio:8.2f} x   "
          f"(target <= {engine.TARGET_UNDO_RATIO}: {mark})")


# -- bench vision ---------------------------------------------------------------------------


def _configure_vision(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--frames", type=int, default=10, help="frames per resolution (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="first scene seed (default 1)")
    parser.add_argument("--dictionaries", action="store_true", help="also compare marker dictionaries")
    parser.add_argument("--schemes", action="store_true", help="also compare resolutions and the QR scheme")
    parser.add_argument("--per-condition", type=int, default=4, metavar="N",
                        help="full-resolution frames per condition (default 4; 0 skips the table)")
    parser.add_argument("--photos", type=Path, default=None, metavar="DIR",
                        help="instead, read the photos of DIR/truth.json (real photographs: see bench/photos.py)")


def _report_vision(vision: ModuleType, args: argparse.Namespace) -> None:
    if args.photos is not None:
        _report_photos(args.photos)
        return
    if args.per_condition > 0:
        _report_conditions(vision, args.per_condition, args.seed)
    if args.schemes:
        _report_schemes(vision, max(1, args.frames), args.seed)
    if args.dictionaries:
        print("\nmarker families, tuned path, harsh conditions, card stickers of several sizes:")
        print(f"{'dictionary':<20} {'card mm':>7} {'resolution':>11} {'ms/frame':>9} {'recall':>13} {'wrong':>6}")
        for card_mm, r in vision.compare_dictionaries(max(1, args.frames), args.seed):
            print(f"{r.name:<20} {card_mm:7g} {_resolution(r.resolution):>11} {r.mean_ms:9.1f} "
                  f"{_recall(r):>13} {r.wrong:6d}")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\nprocess peak resident memory (all of the above): {rss:.0f} MB")


def _report_photos(folder: Path) -> None:
    """The real-photo table: each group of photos (the truth file's folders) by each path."""
    from coyote_pi.bench import photos  # loaded only for this table

    try:
        truth = photos.load_truth(folder)
    except photos.TruthError as error:
        raise SystemExit(f"coyote-pi bench vision: {error}") from None
    print(f"coyote-pi bench vision --photos: {len(truth)} photos, OpenCV on 1 thread, each path's own confirmation")
    header = (f"{'photos':<12} {'path':<15} {'found':>11} {'wrong':>5} {'not decoded':>11} {'rejected':>8} "
              f"{'too small':>9} {'other':>5} {'median':>7} {'worst':>7}")
    print(header)
    print("-" * len(header))
    measured = {}
    for group, tallies in photos.measure_groups(truth).items():
        measured[group] = tallies
        for name, tally in tallies.items():
            found = f"{tally.found}/{tally.markers}"
            print(f"{group:<12} {name:<15} {found:>11} {tally.wrong:5d} {tally.not_decoded:11d} {tally.rejected:8d} "
                  f"{tally.too_small:9d} {tally.other:5d} {tally.median_ms:7.1f} {tally.worst_ms:7.1f}")
    print("(other: detections on no marker of the truth file, which need not list every marker)")
    print("targets (times depend on the machine and its load; the ratio less so):")
    _print_checks(photos.photo_checks(measured))
    real = photos.curve(photos.photo_measures([t for t in truth if t.name.startswith("photos/")] or truth))
    rendered = photos.curve(photos.rendered_curve_measures())
    print("\nthe calibration: cells as a camera greys them, by pixels per module (truth corners; cell contrast:")
    print("darkest white cell less lightest black one, as a share of the contrast; residual: noise and artefacts)")
    header = (f"{'px/module':<10} {'':>1}{'real photos':^42} {'':>1}{'calibrated renderer':^42}")
    print(header)
    columns = f"{'markers':>7} {'blur px':>7} {'contrast':>8} {'cells p10/p50':>13} {'resid':>5}"
    print(f"{'':<10}  {columns}   {columns}")
    rendered_by_bin = {row[0]: row for row in rendered}
    for row in real:
        other = rendered_by_bin.get(row[0])
        print(f"{row[0]:<10}  {_curve_cells(row)}   {_curve_cells(other) if other else ''}")
    _print_checks(photos.calibration_checks(real, rendered))


def _curve_cells(row: CurveRow) -> str:
    _, markers, blur, contrast, low, middle, residual = row
    return f"{markers:7d} {blur:7.2f} {contrast:8.0f} {f'{low:.2f}/{middle:.2f}':>13} {residual:5.1f}"


def _report_conditions(vision: ModuleType, frames_n: int, seed: int) -> None:
    """One row per condition and path, printed as each condition is measured, then the targets."""
    print(f"coyote-pi bench vision: {frames_n} frames of {_resolution(vision.RESOLUTIONS[-1])} per condition, "
          "6 stands, OpenCV on 1 thread")
    header = (f"{'condition':<28} {'path':<15} {'recall':>14} {'wrong':>5} {'seat':>4} {'phant':>5} {'false':>5} "
              f"{'median':>7} {'p90':>6} {'worst':>6}")
    print(header)
    print("-" * len(header))
    measured = []
    for trial, tallies in vision.measure_conditions(frames_n, seed):
        for name, tally in tallies.items():
            recall = f"{tally.read}/{tally.cards} {100 * tally.recall:5.1f}%"
            print(f"{trial.name:<28} {name:<15} {recall:>14} {tally.wrong_values:5d} {tally.wrong_seats:4d} "
                  f"{tally.phantoms:5d} {tally.false_claims:5d} {tally.percentile_ms(0.5):7.1f} "
                  f"{tally.percentile_ms(0.9):6.1f} {max(tally.times_ms):6.1f}")
        for note in tallies["tuned"].notes:
            print(f"    tuned untruth: {note}")
        measured.append((trial, tallies))
    totals = vision.condition_totals(measured)
    tuned, default = totals["tuned"], totals["opencv-default"]
    print(f"\nall conditions: tuned median {tuned.percentile_ms(0.5):.1f} ms, p90 {tuned.percentile_ms(0.9):.1f}, "
          f"worst {max(tuned.times_ms):.1f}; OpenCV default median {default.percentile_ms(0.5):.1f} ms: "
          f"{vision.median_speedup(totals):.1f}x at the median")
    print("targets (times depend on the machine and its load; the ratio less so):")
    _print_checks(vision.condition_checks(measured))


def _report_schemes(vision: ModuleType, frames_n: int, seed: int) -> None:
    """The tuned path, OpenCV's defaults and QR at both resolutions, then the targets."""
    print(f"\n{frames_n} frames per resolution, 7 cards + 6 stands + mat per frame,")
    print("alternately typical and harsh conditions; OpenCV pinned to 1 thread. Times are per read() call.\n")
    results, memory = vision.measure_paths(frames_n, seed)
    full = vision.RESOLUTIONS[-1]
    header = (f"{'path':<20} {'resolution':>11} {'ms/frame':>9} {'median':>7} {'recall':>13} {'wrong':>6} "
              f"{'whole-frame':>11} {'peak MB':>8}")
    print(header)
    print("-" * len(header))
    for r in results:
        mem = f"{memory[r.name]:.0f}" if r.resolution == full and r.name in memory else ""
        print(f"{r.name:<20} {_resolution(r.resolution):>11} {r.mean_ms:9.1f} {statistics.median(r.times_ms):7.1f} "
              f"{_recall(r):>13} {r.wrong:6d} {r.thorough:11d} {mem:>8}")
    print("(peak MB: tracemalloc peak of one 4608x2592 read: numpy and Python allocations, not OpenCV's own)")
    print()
    for resolution in vision.RESOLUTIONS:
        by_name = {r.name: r for r in results if r.resolution == resolution}
        tuned, default = by_name["tuned"], by_name["opencv-default"]
        ratio = default.mean_ms / tuned.mean_ms
        print(f"{_resolution(resolution)}: tuned is {ratio:.1f}x faster than OpenCV's defaults "
              f"({tuned.mean_ms:.1f} vs {default.mean_ms:.1f} ms), recall {100 * tuned.recall:.0f}% vs "
              f"{100 * default.recall:.0f}%, wrong reads {tuned.wrong} vs {default.wrong}")
    print("targets:")
    _print_checks(vision.target_checks(results))


def _print_checks(checks: list[tuple[str, bool]]) -> None:
    for text, met in checks:
        print(f"  [{'met' if met else 'MISSED'}] {text}")


def _resolution(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


def _recall(result: PathResult) -> str:
    return f"{result.correct}/{result.cards} {100 * result.recall:3.0f}%"


# -- bench table ----------------------------------------------------------------------------


def _configure_table(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repeats", type=int, default=15, help="challenges to time (default 15)")
    parser.add_argument("--idle-seconds", type=float, default=3.0, help="how long to measure idle CPU")
    parser.add_argument("--players", type=int, default=4, help="players of the run --sim game (default 4)")
    parser.add_argument("--camera-size", default="2304x1296", help="frame size of the run --sim game")
    parser.add_argument("--skip-memory", action="store_true", help="do not run the run --sim game")


def _report_table(table: ModuleType, args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="coyote-bench-") as tmp:
        folder = Path(tmp)
        if not args.skip_memory:
            # Memory first, while this process maps no OpenCV: mapped pages stay cached.
            dropped = table.read_libraries_afresh()
            peak, seconds = table.peak_memory_sim(folder, args.players, args.camera_size)
            real = table.peak_memory_table(folder, args.idle_seconds + 5)
        times = [table.verdict_ms(folder / f"challenge-{i}") for i in range(args.repeats)]
        idle = table.idle_cpu_percent(folder / "idle", args.idle_seconds)
    print("coyote-pi bench table")
    print(f"  Coyote! press -> verdict frame (camera wait excluded, {len(times)} challenges):")
    print(f"      median {statistics.median(times):.1f} ms, max {max(times):.1f} ms"
          f"      target <= {table.TARGET_VERDICT_MS:.0f} ms")
    print(f"  idle CPU waiting for a press ({args.idle_seconds:.0f} s): {idle:.2f} % of one core"
          f"      target < {table.TARGET_IDLE_PERCENT:.0f} %")
    if args.skip_memory:
        return
    print(f"  peak memory of run --sim --scripted ({args.players} players, {args.camera_size} frames, "
          f"whole game in {seconds:.0f} s): {peak.mb:.0f} MB      target < {table.TARGET_MEMORY_MB:.0f} MB")
    if peak.split():
        print(peak.split())
    if dropped:
        print(f"      ({dropped} libraries and fonts were first dropped from the page cache, to be read"
              " from disk as after a boot: see docs/controller.md)")
    else:
        print("      (the libraries' page cache was left as found: see docs/controller.md)")
    print(f"      for comparison, run on the real table's path (4608x2592 stills, no renderer): {real.mb:.0f} MB")


Options = Callable[[argparse.ArgumentParser], None]
Report = Callable[[ModuleType, argparse.Namespace], None]
#: target -> (its options, its report of what :mod:`coyote_pi.bench`'s module of that name measures).
# -- bench soak -----------------------------------------------------------------------------


def _configure_soak(parser: argparse.ArgumentParser) -> None:
    from coyote_pi.sim.soak_report import SoakOptions  # the chosen target's module only (see run)

    parser.add_argument("--hours", type=float, default=SoakOptions.hours,
                        help=f"simulated hours to play (default {SoakOptions.hours})")
    parser.add_argument("--seed", type=int, default=SoakOptions.seed, help="the evening's seed (default 1)")
    parser.add_argument("--fault-scale", type=float, default=1.0,
                        help="faults this many times as often (default 1; 0: none)")
    parser.add_argument("--record-dir", type=Path, default=None, help="keep the records here (default: thrown away)")


def _report_soak(soak: ModuleType, args: argparse.Namespace) -> None:
    report = soak.run_soak(soak.SoakOptions(hours=args.hours, seed=args.seed, fault_scale=args.fault_scale,
                                            record_dir=args.record_dir))
    print("\n".join(report.lines()))
    if not report.ok:
        raise SystemExit(1)


# -- bench web ------------------------------------------------------------------------------


def _configure_web(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pace", type=float, default=0.25,
                        help="seconds each seat thinks before its turn and between its presses (default 0.25)")


def _report_web(web: ModuleType, args: argparse.Namespace) -> None:
    print(f"coyote-pi bench web (the page as its own process, Chromium watching, {web.SPECTATORS} more spectators)")
    figures = web.measure(pace=args.pace)

    def line(text: str, value: float, unit: str, target: float, below: bool = True) -> None:
        mark = "ok" if (value <= target if below else value >= target) else "MISSED"
        print(f"  {text:44} {value:8.1f} {unit:4} (target {'<=' if below else '>='} {target} {unit}: {mark})")

    print(f"  {figures.updates} of {figures.presses} presses during turns measured, over {figures.game_seconds:.1f} s of play")
    line("press to browser update, median", figures.median_ms, "ms", web.TARGET_UPDATE_MS)
    line("press to browser update, worst", figures.worst_ms, "ms", web.TARGET_UPDATE_MS)
    line(f"page process CPU, {web.SPECTATORS + 1} spectators", figures.cpu_percent, "%", web.TARGET_CPU_PERCENT)
    line("page process peak memory (RSS)", figures.peak_rss_mb, "MB", web.TARGET_RSS_MB)
    line("table page weight (HTML, CSS, JS; no photo)", figures.weight_kb, "KB", web.TARGET_WEIGHT_KB)


# -- bench players --------------------------------------------------------------------------


def _configure_players(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=2400,
                        help="games per lineup and variant (default 2400: a multiple of every lineup's seatings)")
    parser.add_argument("--sweep-games", type=int, default=300,
                        help="games against each setting of an opponent family (default 300)")
    parser.add_argument("--worst-games", type=int, default=2400,
                        help="games against the worst setting of each family, on other decks (default 2400)")
    parser.add_argument("--skip-round-robin", action="store_true",
                        help="leave out the round robins of the levels (they have no target)")
    parser.add_argument("--spread", type=int, default=5,
                        help="the best response's raises: at most this far above the lowest legal bid (default 5)")
    parser.add_argument("--raises", type=int, default=2,
                        help="the best response's own raises in a round before it plays on as the strong level "
                             "(default 2)")
    parser.add_argument("--memory-games", type=int, default=200,
                        help="games traced for the strong level's memory (default 200)")


def _report_players(players: ModuleType, args: argparse.Namespace) -> None:
    print(f"coyote-pi bench players ({args.games} games per lineup and variant, {args.sweep_games} against each "
          f"setting of a family, {args.worst_games} against its worst; every seating in turn; "
          "win rate and 95 % interval)")
    checks: list[tuple[str, bool]] = []
    times = players.Times()
    for variant in (BASIC, TRICKSTER):
        for seats in (3, 5):
            if not args.skip_round_robin:
                print(f"  {variant}, {seats} seats, round robin:")
                for lineup in players.round_robin(seats):
                    _print_result(players.tournament(lineup, variant, args.games))
            target = players.tournament(players.against_baselines(seats), variant, args.games, times)
            print(f"  {variant}, {seats} seats, the strong level against the baselines:")
            _print_result(target)
            wanted = players.TARGET_SHARE_FACTOR * target.fair_share
            checks.append((f"{variant}, {seats} seats: strong wins {target.of('strong').rate:.1%} against the "
                           f"baselines (target >= {wanted:.0%})", target.of("strong").rate >= wanted))
            copies = f"{seats - 1} copies"
            print(f"  {variant}, {seats} seats, the strong level against {copies} of each opponent:")
            for level in players.LEVELS:
                if level != "strong":
                    checks.append(_check_against(players, players.tournament(players.against(level, seats), variant,
                                                                    args.games, times), variant, copies))
            for family in players.FAMILIES:
                swept = players.sweep(family, seats, variant, args.sweep_games, args.worst_games, times)
                print(f"      {family}, {len(swept.members)} settings swept ({args.sweep_games} games each), "
                      "strong: " + ", ".join(f"{result.lineup[1].split()[-1]} {result.of('strong').rate:.0%}"
                                             for result in swept.members))
                checks.append(_check_against(players, swept.worst, variant, copies, "the worst setting, on other decks: "))
        print(f"  {variant}, head to head (2 seats):")
        for other in ("cautious", "bluffer"):
            duel = players.tournament(("strong", other), variant, args.games, times)
            _print_result(duel)
            low, _ = duel.of("strong").interval
            checks.append((f"{variant}: strong beats {other} head to head, {duel.of('strong').rate:.1%} "
                           f"(interval above 50 %: {low:.1%})", low > 0.5))
    exploited = players.best_response(args.spread, args.raises)
    print(f"  exploitability, 2 seats, basic: a best response to the strong level (raises at most {args.spread} above "
          f"the lowest legal bid, {args.raises} of its own before it plays on as the strong level) makes it lose "
          f"{exploited.strong_loses:.1%} of the rounds (50 % is even; exact, every deal)")
    strong = [seconds * 1000 for seconds in times.by_level["strong"]]
    median, worst = statistics.median(strong), max(strong)
    print(f"  strong level's decisions ({len(strong)} timed, CPU time on one core): median {median:.2f} ms, "
          f"worst {worst:.1f} ms")
    checks.append((f"decision median {median:.2f} ms (target <= {players.TARGET_MEDIAN_MS:.0f} ms)",
                   median <= players.TARGET_MEDIAN_MS))
    checks.append((f"decision worst {worst:.1f} ms (target <= {players.TARGET_WORST_MS:.0f} ms)",
                   worst <= players.TARGET_WORST_MS))
    memory = max(players.strong_memory_mb(args.memory_games, variant) for variant in (BASIC, TRICKSTER))
    checks.append((f"strong level's tables: peak {memory:.1f} MB traced over {args.memory_games} games "
                   f"(target <= {players.TARGET_MEMORY_MB:.0f} MB)", memory <= players.TARGET_MEMORY_MB))
    print("targets:")
    for text, met in checks:
        print(f"  {'met    ' if met else 'NOT MET'} {text}")


def _check_against(players: ModuleType, result: Result, variant: str, copies: str,
                   which: str = "") -> tuple[str, bool]:
    """Print the strong level's result against ``copies`` of one opponent; its target line."""
    strong = result.of("strong")
    low, high = strong.interval
    wanted = players.TARGET_SHARE_FACTOR * result.fair_share
    print(f"      {which}{result.lineup[1]}: strong {strong.rate:.1%} [{low:.1%}, {high:.1%}] over {result.games} games")
    return (f"{variant}, {len(result.lineup)} seats: strong wins {strong.rate:.1%} [{low:.1%}, {high:.1%}] against "
            f"{copies} of {result.lineup[1]} (target: interval >= {wanted:.0%})", players.met(result))


# -- bench review ---------------------------------------------------------------------------


def _configure_review(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=20, help="games per variant (default 20)")
    parser.add_argument("--players", type=int, default=5, help="seats of each game (default 5)")


def _report_review(review: ModuleType, args: argparse.Namespace) -> None:
    print(f"coyote-pi bench review ({args.games} games per variant, {args.players} seats, the levels "
          f"{', '.join(review.LINEUP)} seated in turn; each record read and reviewed as `coyote-pi review` does)")
    with tempfile.TemporaryDirectory(prefix="coyote-pi-bench-review-") as folder:
        measured = review.measure(Path(folder), args.games, args.players)
    sizes = [decisions for decisions, _ in measured.seconds]
    seconds = [taken for _, taken in measured.seconds]
    print(f"  {len(seconds)} reviews of {min(sizes)} to {max(sizes)} decisions: median {statistics.median(seconds):.2f} s, "
          f"worst {max(seconds):.2f} s ({max(seconds) / sizes[seconds.index(max(seconds))] * 1000:.1f} ms a decision)")
    print("  marks per 100 decisions: " + " | ".join(
        f"{level} {measured.per_hundred(level):.1f} ({measured.decisions[level]} decisions)" for level in review.LINEUP))
    worst = measured.worst_at_target()
    strong = measured.per_hundred("strong")
    checks = [
        (f"a whole game's review (up to {review.TARGET_DECISIONS} decisions): worst {worst:.2f} s "
         f"(target <= {review.TARGET_SECONDS:.0f} s)",
         0 < worst <= review.TARGET_SECONDS),
        (f"the strong level's games earn the fewest marks: {strong:.1f} per 100 decisions",
         all(strong < measured.per_hundred(level) for level in review.LINEUP if level != "strong")),
    ]
    print("targets:")
    for text, met in checks:
        print(f"  {'met    ' if met else 'NOT MET'} {text}")


def _print_result(result: Result) -> None:
    cells = []
    for standing in result.standings:
        low, high = standing.interval
        cells.append(f"{standing.level} {standing.rate:6.1%} [{low:.1%}, {high:.1%}]")
    print("      " + " | ".join(cells))


# -- bench speech ---------------------------------------------------------------------------


def _configure_speech(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--phrases", type=int, default=20, help="bids to time to their first sample (default 20)")
    parser.add_argument("--games", type=int, default=3, help="games to time the loop over (default 3)")
    parser.add_argument("--device", default=None, metavar="NAME",
                        help="play through aplay on this ALSA device (default: a sink at a device's pace)")


def _report_speech(speech: ModuleType, args: argparse.Namespace) -> None:
    where = f"aplay on {args.device}" if args.device else "a sink at a device's pace, no sound card"
    print(f"coyote-pi bench speech (espeak-ng; {where})")
    memory = speech.memory(device=args.device)  # first: the process before anything else ran
    first = speech.first_sample_ms(args.phrases, device=args.device)
    loop = speech.loop_ms(args.games, device=args.device)

    def line(text: str, met: bool) -> None:
        print(f"  {'met    ' if met else 'NOT MET'} {text}")

    median, _, largest = speech.summary(first)
    line(f"bid to its first sample: median {median:.0f} ms, first phrase {first[0]:.0f} ms, largest {largest:.0f} ms"
         f" ({len(first)} bids; target: median <= {speech.TARGET_FIRST_SAMPLE_MS:.0f} ms)",
         median <= speech.TARGET_FIRST_SAMPLE_MS)
    median, p99, largest = speech.summary(loop)
    line(f"the loop's added time per pass while speaking: median {median * 1000:.0f} us, 99th percentile "
         f"{p99 * 1000:.0f} us, largest {largest * 1000:.0f} us ({len(loop)} passes; target: 99th percentile "
         f"<= {speech.TARGET_LOOP_MS:.0f} ms)", p99 <= speech.TARGET_LOOP_MS)
    line(f"memory: {memory.total_mb:.1f} MB more ({memory.process_mb:.1f} MB in the table's process, "
         f"{memory.child_mb:.1f} MB espeak-ng while it speaks; target <= {speech.TARGET_MEMORY_MB:.0f} MB)",
         memory.total_mb <= speech.TARGET_MEMORY_MB)


TARGETS: dict[str, tuple[Options, Report]] = {
    "engine": (_configure_engine, _report_engine),
    "vision": (_configure_vision, _report_vision),
    "table": (_configure_table, _report_table),
    "soak": (_configure_soak, _report_soak),
    "web": (_configure_web, _report_web),
    "players": (_configure_players, _report_players),
    "speech": (_configure_speech, _report_speech),
    "review": (_configure_review, _report_review),
}
#: Targets measured outside coyote_pi.bench: the soak drives the simulated table's clock.
MODULES = {"soak": "coyote_pi.sim.soak"}
