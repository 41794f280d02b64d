"""``bench soak`` in small: a quarter of an hour of play with every fault, and leaks it must catch."""

from __future__ import annotations

import mmap
import os

import pytest

from coyote_pi.sim.soak import _Soak, run_soak
from coyote_pi.sim.soak_report import FAULTS, MAX_GROWTH_MB, FaultTally, SoakOptions
from coyote_pi.table.presenter import Listener

#: A short evening with the faults eight times as often, so that each comes more than once.
SHORT = SoakOptions(hours=0.25, seed=3, fault_scale=8.0)


def test_a_short_evening_with_every_fault_gives_sane_figures(tmp_path):
    report = run_soak(SoakOptions(**{**SHORT.__dict__, "record_dir": tmp_path}))
    assert report.simulated_seconds >= SHORT.hours * 3600
    assert report.actions > 20  # a game went on: deals, bids, verdicts
    assert list(tmp_path.glob("game-*.jsonl"))
    for name, tally in report.faults.items():
        assert tally.injected >= 1, name
        assert 0 <= tally.survived <= tally.injected, name
    for name in ("OLED unplugged", "I2C errors on the OLED bus", "glitch train on a button line",
                 "kill -9 and restart", "camera hung"):
        assert report.faults[name].survived == report.faults[name].injected, (name, report.last_lines)
    assert report.faults["glitch train on a button line"].notes["spikes"] >= 20
    assert report.events_lost == 0
    assert report.start.fds > 3 and report.start.rss_mb > 10
    # A quarter of an hour is too short to judge memory (bench soak plays 8.5 hours for that).
    assert report.fd_growth == 0 and abs(report.rss_growth_mb) < 50
    assert 0 < report.longest_silent_wait < 30  # a hung camera is answered within its deadline
    assert report.watchdog_pings > 0
    printed = "\n".join(report.lines())
    for figure in ("games completed", "events lost", "file descriptors", "resident memory", "no reason"):
        assert figure in printed
    assert all(name in printed for name in FAULTS)


class LeakyWatcher(Listener):
    """Keeps a file open and 500 KB of fresh pages for every question the table asks (a
    mapping of its own: memory freed earlier in this process cannot hide it)."""

    def __init__(self, folder) -> None:
        self.folder, self.kept = folder, []

    def on_prompt(self, prompt) -> None:
        descriptor = os.open(self.folder / f"leak-{len(self.kept)}", os.O_CREAT | os.O_WRONLY)
        pages = mmap.mmap(-1, 500_000)
        pages.write(os.urandom(500_000))
        self.kept.append((descriptor, pages))


def test_a_leak_is_caught(tmp_path):
    leaky = LeakyWatcher(tmp_path)
    try:
        report = run_soak(SoakOptions(hours=0.1, seed=2, fault_scale=0), listeners=[leaky])
    finally:
        for descriptor, pages in leaky.kept:
            os.close(descriptor)
            pages.close()
    assert report.fd_growth > 0 and report.rss_growth_mb >= MAX_GROWTH_MB
    assert not report.ok and report.lines()[-1].strip() == "FAIL"


def test_an_evening_needs_some_time():
    with pytest.raises(ValueError, match="hours must be positive, not 0"):
        run_soak(SoakOptions(hours=0))


def test_a_disk_full_before_the_first_record_loses_nothing(tmp_path):
    """The table cannot start its record while the disk is full: it waits, holding nothing
    accepted, and the freed disk finds no record to compare (``bench soak`` once crashed here)."""
    soak = _Soak(SoakOptions(hours=0.05, seed=1, fault_scale=0), tmp_path, [])
    tally = FaultTally()
    with soak.disk.installed():
        soak._fill_disk(tally, lasts=60.0)
        report = soak.run()
    assert tally.injected == 1 and soak.disk.full is False  # filled at the start, freed after a minute
    assert report.events_lost == 0 and report.actions > 0  # the game began once the disk had room
    assert list(tmp_path.glob("game-*.jsonl"))
