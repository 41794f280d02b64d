"""``coyote-pi demo`` and ``coyote-pi bench table`` do what they promise (small runs)."""

from __future__ import annotations

import re

from PIL import Image

from coyote_pi.cli import main as coyote_pi
from coyote_pi.record import read_record


def test_the_demo_plays_a_game_and_writes_its_output_folder(tmp_path, capsys):
    out = tmp_path / "demo"
    out.mkdir()
    (out / "reveal-round-09.png").write_bytes(b"left by an earlier run")
    (out / "notes.txt").write_text("not the demo's", encoding="utf-8")

    assert coyote_pi(["demo", "--out", str(out), "--players", "2", "--variant", "basic", "--seed", "3",
                      "--camera-size", "1280x720"]) == 0
    printed = capsys.readouterr().out

    record = read_record(out / "game-0001.jsonl")
    game = record.game
    assert game.winner is not None
    assert f"seat {game.winner} wins after {game.round_number} rounds" in printed
    assert re.search(r"seat \d presses (plus|minus|ok)", printed) and "verdict of round 1:" in printed
    assert f"--expect {record.fingerprint[:8]}" in printed

    reveals = sorted(p.name for p in out.glob("reveal-round-*.png"))
    assert reveals == [f"reveal-round-{r:02d}.png" for r in range(1, game.round_number + 1)]
    draws = [r.round for r in game.results if r.score.replacement is not None]
    assert sorted(p.name for p in out.glob("draw-round-*.png")) == [f"draw-round-{r:02d}.png" for r in draws]
    with Image.open(out / reveals[0]) as frame:
        assert frame.size == (1280, 720)
    with Image.open(out / "oled.gif") as gif:
        assert gif.n_frames > 20 and gif.size == (128 * 3, 64 * 3)
    assert (out / "notes.txt").exists()  # only the demo's own files are replaced
    assert (out / "play-by-play.txt").read_text(encoding="utf-8").count("verdict of round") == game.round_number


def test_bench_table_prints_figures_beside_targets(capsys):
    assert coyote_pi(["bench", "table", "--repeats", "2", "--idle-seconds", "0.3", "--skip-memory"]) == 0
    printed = capsys.readouterr().out
    assert re.search(r"median \d+\.\d ms, max \d+\.\d ms\s+target <= 50 ms", printed)
    assert re.search(r"idle CPU .*: \d+\.\d\d % of one core\s+target < 1 %", printed)


def test_the_memory_benchmark_measures_the_child_it_runs_and_splits_off_mapped_files():
    import sys

    from coyote_pi.table.bench import _peak

    grows = "import time; block = bytearray(80 * 2**20); time.sleep(0.1)"
    peak = _peak([sys.executable, "-c", grows])
    assert 80 <= peak.mb < 200
    if sys.platform.startswith("linux"):
        assert 0 < peak.files_mb < 40 and peak.mb - peak.files_mb >= 80
        assert "own memory" in peak.split()
    stopped = _peak([sys.executable, "-c", "import time; time.sleep(60)"], stop_after=0.5)
    assert stopped.mb < 80  # stopped with SIGTERM, and the 80 MB child is not counted again
