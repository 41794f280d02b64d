"""What ``coyote-pi bench soak`` plays and what it finds: the options, the faults of an
evening, and the report.

:data:`FAULTS` lists the faults with how often each comes and how long it lasts (the
soak, :mod:`coyote_pi.sim.soak`, injects them at random moments drawn from its seed);
:class:`SoakReport` gathers the figures the evening yields and prints them
(:meth:`SoakReport.lines`), and says whether the table passed (:attr:`SoakReport.ok`):
no accepted action missing from the record, no file descriptor more at the end than
after the warm-up, and resident memory grown by less than :data:`MAX_GROWTH_MB`.
"""

from __future__ import annotations

import collections
import gc
import os
from dataclasses import dataclass, field
from pathlib import Path

#: The targets: descriptors may not grow at all, memory by less than this.
MAX_GROWTH_MB = 5.0


@dataclass(frozen=True)
class Fault:
    """One kind of fault: how often it comes (mean minutes between two) and for how long."""

    name: str
    every_minutes: float
    lasts_minutes: tuple[float, float] = (0.0, 0.0)


#: The faults of an evening, by name.
FAULTS: dict[str, Fault] = {fault.name: fault for fault in (
    Fault("OLED unplugged", 75, (2, 6)),
    Fault("I2C errors on the OLED bus", 12),
    Fault("camera hung", 50, (5, 15)),
    Fault("camera garbage frames", 40, (1, 4)),
    Fault("glitch train on a button line", 6),
    Fault("full disk", 200, (5, 15)),
    Fault("kill -9 and restart", 100),
)}


@dataclass(frozen=True)
class SoakOptions:
    """What to play: ``hours`` of simulated time, with the faults ``fault_scale`` times as
    often (0: none, a quiet evening)."""

    hours: float = 8.5
    seed: int = 1
    players: int = 4
    variant: str = "trickster"
    fault_scale: float = 1.0
    #: Where the records go (None: a temporary folder, removed afterwards).
    record_dir: Path | None = None


@dataclass(frozen=True)
class Usage:
    """Open file descriptors and resident memory of this process."""

    fds: int
    rss_mb: float

    @classmethod
    def now(cls) -> Usage:
        """Measured now, after a garbage collection (Linux: from ``/proc/self``)."""
        gc.collect()
        fds = len(os.listdir("/proc/self/fd"))  # counts the listing's own descriptor: always one more
        with open("/proc/self/statm", encoding="ascii") as statm:
            resident_pages = int(statm.read().split()[1])
        return cls(fds, resident_pages * os.sysconf("SC_PAGE_SIZE") / 2**20)


@dataclass
class FaultTally:
    """How often a fault was injected, and how often the table came through it."""

    injected: int = 0
    survived: int = 0
    #: Figures that say more about this fault (refused actions, spikes...), printed beside it.
    notes: collections.Counter[str] = field(default_factory=collections.Counter)


@dataclass
class SoakReport:
    """The figures of one soak (see the module docstring for what each means)."""

    options: SoakOptions
    simulated_seconds: float = 0.0
    real_seconds: float = 0.0
    games_completed: int = 0
    actions: int = 0
    faults: dict[str, FaultTally] = field(default_factory=lambda: {name: FaultTally() for name in FAULTS})
    events_lost: int = 0
    start: Usage | None = None
    end: Usage | None = None
    longest_silent_wait: float = 0.0
    #: Where that was: the wait, and whether a capture hung meanwhile.
    longest_silent_where: str = ""
    stops: collections.Counter[str] = field(default_factory=collections.Counter)
    watchdog_pings: int = 0
    warnings: int = 0
    #: The play-by-play's last lines, for a look when something went wrong.
    last_lines: collections.deque[str] = field(default_factory=lambda: collections.deque(maxlen=40))

    def usage(self) -> tuple[Usage, Usage]:
        """The usage measured at the start and at the end (ValueError until both are)."""
        if self.start is None or self.end is None:
            raise ValueError("the soak's usage is measured at its start and its end: read the report after both")
        return self.start, self.end

    @property
    def fd_growth(self) -> int:
        start, end = self.usage()
        return end.fds - start.fds

    @property
    def rss_growth_mb(self) -> float:
        start, end = self.usage()
        return end.rss_mb - start.rss_mb

    @property
    def ok(self) -> bool:
        """No event lost, no descriptor more, memory grown by less than :data:`MAX_GROWTH_MB`."""
        return self.events_lost == 0 and self.fd_growth <= 0 and self.rss_growth_mb < MAX_GROWTH_MB

    def lines(self) -> list[str]:
        """The report as ``bench soak`` prints it."""
        hours = self.simulated_seconds / 3600
        out = [f"coyote-pi bench soak: {hours:.1f} simulated hours in {self.real_seconds:.0f} s "
               f"(seed {self.options.seed}, {self.options.players} players, {self.options.variant})",
               f"  games completed: {self.games_completed} ({self.actions} actions accepted)",
               "  faults injected / survived:"]
        for name, tally in self.faults.items():
            notes = ", ".join(f"{count} {what}" for what, count in sorted(tally.notes.items()))
            out.append(f"      {name:32} {tally.injected:5} / {tally.survived:<5}" + (f"  ({notes})" if notes else ""))
        if self.stops:
            out.append("  the table stopped on: " + ", ".join(f"{why} x{n}" for why, n in self.stops.most_common())
                       + " (restarted as systemd does)")
        start, end = self.usage()
        out += [
            f"  events lost (accepted actions not in the record): {self.events_lost}      must be 0",
            f"  file descriptors: {start.fds} at the start, {end.fds} at the end: "
            f"{self.fd_growth:+d}      must be +0",
            f"  resident memory: {start.rss_mb:.1f} MB at the start, {end.rss_mb:.1f} MB at the end: "
            f"{self.rss_growth_mb:+.1f} MB      must be under +{MAX_GROWTH_MB:.0f} MB",
            f"  longest wait for cards with no reason on the screen: {self.longest_silent_wait:.1f} s"
            + (f" ({self.longest_silent_where})" if self.longest_silent_where else ""),
            f"  watchdog pings: {self.watchdog_pings}; warnings logged: {self.warnings}",
            f"  {'PASS' if self.ok else 'FAIL'}",
        ]
        return out
