"""``coyote-pi demo`` and ``coyote-pi bench table`` do what they promise (small runs)."""

from __future__ import annotations

import json
import re
import wave

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
    assert f"--expect {record.fingerprint} --photos {out / 'game-0001.photos'}" in printed
    # Every reveal and draw kept its photo, and replay --photos accepts them.
    photos = sorted(p.name for p in (out / "game-0001.photos").iterdir())
    draws = [r.round for r in game.results if r.score.replacement is not None]
    assert photos == sorted([f"round-{r:02d}-reveal.jpg" for r in range(1, game.round_number + 1)]
                            + [f"round-{r:02d}-draw.jpg" for r in draws])
    assert coyote_pi(["replay", str(out / "game-0001.jsonl"), "--photos", str(out / "game-0001.photos")]) == 0
    assert json.loads(capsys.readouterr().out)["record"]["photos_checked"] == len(photos)
    assert {line["kind"] for line in record.lines} >= {"opening"} and "seed" not in record.meta
    assert record.meta["virtual"] == {"2": "strong"} and "seat 2 (virtual, strong) decides" in printed
    assert not list((out / "private").glob("*.round.json"))  # no round open: nothing waits sealed

    reveals = sorted(p.name for p in out.glob("reveal-round-*.png"))
    assert reveals == [f"reveal-round-{r:02d}.png" for r in range(1, game.round_number + 1)]
    assert sorted(p.name for p in out.glob("draw-round-*.png")) == [f"draw-round-{r:02d}.png" for r in draws]
    with Image.open(out / reveals[0]) as frame:
        assert frame.size == (1280, 720)
    with Image.open(out / "oled.gif") as gif:
        assert gif.n_frames > 20 and gif.size == (128 * 3, 64 * 3)
    # What the table said: one track beside the GIF, each phrase at its second in it, every
    # verdict among them (never dropped), the winner last.
    with wave.open(str(out / "speech.wav")) as track:
        seconds = track.getnframes() / track.getframerate()
    said = [line.split("\t") for line in (out / "speech.txt").read_text(encoding="utf-8").splitlines()]
    starts = [float(start) for start, _, _ in said]
    assert starts == sorted(starts) and starts[0] > 0 and starts[-1] < seconds
    assert [kind for _, kind, _ in said].count("verdict") == game.round_number
    assert said[-1][1:] == ["winner", f"Seat {game.winner} wins!"]
    assert (out / "notes.txt").exists()  # only the demo's own files are replaced
    assert (out / "play-by-play.txt").read_text(encoding="utf-8").count("verdict of round") == game.round_number


def test_the_demos_last_words_are_in_its_language_with_the_right_plurals(tmp_path):
    from types import SimpleNamespace

    from coyote_pi.commands.demo import summary
    from coyote_pi.words.translator import Translator

    path = tmp_path / "game-0001.jsonl"
    record = SimpleNamespace(game=SimpleNamespace(winner=2, round_number=1), lines=[{}] * 21, fingerprint="NB24-7QX3")
    lines = summary(Translator("de"), tmp_path, record, path, tmp_path / "game-0001.photos", checked=1, oled_frames=5,
                    camera_frames=1, phrases=1, seconds=61.4)
    assert lines == [
        "Platz 2 gewinnt nach 1 Runde (61 s)",
        f"geschrieben nach {tmp_path}/:",
        "  oled.gif            5 OLED-Bilder",
        "  speech.wav          1 gesprochener Satz, im Takt des GIF (Zeiten in speech.txt)",
        "  reveal/draw PNGs    1 beschriftetes Kamerabild",
        "  game-0001.jsonl     das Spielprotokoll, 21 Zeilen; prüfen mit",
        f"                      coyote-pi replay {path} --expect NB24-7QX3 --photos {tmp_path / 'game-0001.photos'}",
        "  game-0001.photos/   1 Foto der Aufdeckungen und Ziehungen, im Protokoll genannt",
        "  play-by-play.txt    dieser Verlauf (auf Englisch)"]
    russian = summary(Translator("ru"), tmp_path, record, path, tmp_path / "p", checked=5, oled_frames=21,
                      camera_frames=3, phrases=0, seconds=1)
    assert russian[0] == "место 2 побеждает за 1 раунд (1 с)" and "записано в" in russian[1]
    assert russian[2].endswith("21 кадр OLED") and russian[3].startswith("  (нет speech.wav")
    assert russian[4].endswith("3 размеченных кадра камеры") and russian[5].endswith("21 строка; проверка:")
    assert russian[7].endswith("5 фото вскрытий и добора, названных в записи")


def test_bench_table_prints_figures_beside_targets(capsys):
    assert coyote_pi(["bench", "table", "--repeats", "2", "--idle-seconds", "0.3", "--skip-memory"]) == 0
    printed = capsys.readouterr().out
    assert re.search(r"median \d+\.\d ms, max \d+\.\d ms\s+target <= 50 ms", printed)
    assert re.search(r"idle CPU .*: \d+\.\d\d % of one core\s+target < 1 %", printed)


def test_the_memory_benchmark_measures_the_child_it_runs_and_splits_off_mapped_files():
    import sys

    from coyote_pi.bench.table import _peak

    grows = "import time; block = bytearray(80 * 2**20); time.sleep(0.1)"
    peak = _peak([sys.executable, "-c", grows])
    assert 80 <= peak.mb < 200
    if sys.platform.startswith("linux"):
        assert 0 < peak.files_mb < 40 and peak.mb - peak.files_mb >= 80
        assert "own memory" in peak.split()
    stopped = _peak([sys.executable, "-c", "import time; time.sleep(60)"], stop_after=0.5)
    assert stopped.mb < 80  # stopped with SIGTERM, and the 80 MB child is not counted again


def _filesystem_type(path) -> str:
    """The type of the filesystem ``path`` is on, from /proc/self/mounts ('' if unknown)."""
    best, kind = "", ""
    with open("/proc/self/mounts", encoding="utf-8") as mounts:
        for line in mounts:
            _, mount_point, fs_type = line.split()[:3]
            if str(path).startswith(mount_point) and len(mount_point) > len(best):
                best, kind = mount_point, fs_type
    return kind


def _resident_pages(path) -> int:
    """How many of ``path``'s pages are in the page cache (mincore on a fresh, untouched mapping)."""
    import ctypes
    import os

    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    size, page = os.path.getsize(path), os.sysconf("SC_PAGE_SIZE")
    fd = os.open(path, os.O_RDONLY)
    try:
        address = libc.mmap(None, size, 1, 1, fd, 0)  # PROT_READ, MAP_SHARED
        assert address not in (None, ctypes.c_void_p(-1).value), os.strerror(ctypes.get_errno())
        try:
            pages = ctypes.create_string_buffer((size + page - 1) // page)
            assert libc.mincore(address, size, pages) == 0, os.strerror(ctypes.get_errno())
            return sum(byte & 1 for byte in pages.raw)
        finally:
            libc.munmap(address, size)
    finally:
        os.close(fd)


def test_the_memory_benchmark_reads_the_libraries_afresh(tmp_path):
    import sys

    import pytest

    from coyote_pi.bench.table import read_libraries_afresh

    if not sys.platform.startswith("linux"):
        pytest.skip("posix_fadvise and mincore are Linux's")
    if _filesystem_type(tmp_path) in ("tmpfs", "ramfs", "overlay", ""):
        pytest.skip(f"{tmp_path} is on tmpfs, ramfs (nothing behind the page cache) or overlay (not tried)")
    library = tmp_path / "libjust-written.so.1.2"
    library.write_bytes(bytes(range(256)) * 4096)  # 1 MB, cached as it is written
    untouched = tmp_path / "notes.txt"
    untouched.write_bytes(b"not a library" * 4096)
    assert _resident_pages(library) > 0 and _resident_pages(untouched) > 0

    assert read_libraries_afresh({tmp_path}) == 1
    assert _resident_pages(library) == 0
    assert _resident_pages(untouched) > 0  # only shared libraries and fonts are dropped
    assert library.read_bytes() == bytes(range(256)) * 4096  # nothing is lost
