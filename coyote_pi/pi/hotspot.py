"""The device's own Wi-Fi, when no known network is in reach: a phone still finds the page.

Run once at boot by ``coyote-pi-hotspot.service`` (``coyote-pi hotspot``): it waits up
to :data:`WAIT_SECONDS` for NetworkManager (the network stack of Raspberry Pi OS) to
bring up a known Wi-Fi or a cable. If none comes, it opens a hotspot::

    nmcli device wifi hotspot ifname wlan0 ssid <ssid> password <key>

and leaves the join details in a small JSON file
(:class:`~coyote_pi.table.web_access.HotspotJoin`: network, key, the page's address on
it) that the table shows on its OLED as a QR code a phone joins with, then the page's
address. NetworkManager's shared mode gives the device :data:`HOTSPOT_ADDRESS`.

The network's name is the device's host name; its key is made once, at random, and kept
in a file only root reads, so a phone that joined once joins again after a reboot.
"""

from __future__ import annotations

import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from coyote_pi.files import write_atomically
from coyote_pi.table.web_access import HotspotJoin

#: How long NetworkManager has after boot to join a known network.
WAIT_SECONDS = 45.0
#: How often it is asked meanwhile.
POLL_SECONDS = 3.0
#: The device's address on its own hotspot (NetworkManager's shared mode).
HOTSPOT_ADDRESS = "10.42.0.1"
#: Letters of a hotspot key that cannot be mistaken for one another on the OLED.
KEY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


class HotspotError(Exception):
    """nmcli is missing or refused; the message is one line saying which."""


@dataclass(frozen=True)
class Outcome:
    """What :func:`open_if_alone` did: ``joined`` a network, or opened ``hotspot``."""

    joined: bool
    hotspot: HotspotJoin | None = None


def run_nmcli(argv: Sequence[str]) -> str:
    """Run ``nmcli`` with ``argv``; its output, or HotspotError (missing, or failing: its own words)."""
    nmcli = shutil.which("nmcli")
    if nmcli is None:
        raise HotspotError("nmcli not found: NetworkManager (Raspberry Pi OS's network stack) is not installed")
    try:
        done = subprocess.run([nmcli, *argv], capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise HotspotError(f"nmcli {' '.join(argv[:3])} did not run: {error}") from None
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        raise HotspotError(f"nmcli {' '.join(argv[:3])} failed: {said[-1] if said else f'exit status {done.returncode}'}")
    return done.stdout


def connected(nmcli: Callable[[Sequence[str]], str] = run_nmcli) -> bool:
    """Whether a Wi-Fi or a cable is connected (``nmcli -t -f TYPE,STATE device``)."""
    for line in nmcli(["-t", "-f", "TYPE,STATE", "device"]).splitlines():
        kind, _, state = line.partition(":")
        if kind in ("wifi", "ethernet") and state == "connected":
            return True
    return False


def hotspot_key(path: Path) -> str:
    """The hotspot's key: the one kept in ``path``, else a new one (two groups of four), kept there."""
    try:
        key = path.read_text(encoding="utf-8").strip()
        if len(key) >= 8:
            return key
    except OSError:
        pass
    key = "".join(secrets.choice(KEY_ALPHABET) for _ in range(8))
    key = f"{key[:4]}-{key[4:]}"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, (key + "\n").encode("utf-8"), durable=True, mode=0o600)  # the same key after a power cut
    return key


def page_address(port: int) -> str:
    """The page's address on the hotspot."""
    return f"http://{HOTSPOT_ADDRESS}/" if port == 80 else f"http://{HOTSPOT_ADDRESS}:{port}/"


def open_if_alone(out: Path, key_file: Path, *, port: int = 80, ifname: str = "wlan0", ssid: str | None = None,
                  wait: float = WAIT_SECONDS, nmcli: Callable[[Sequence[str]], str] = run_nmcli,
                  sleep: Callable[[float], None] = time.sleep, clock: Callable[[], float] = time.monotonic) -> Outcome:
    """Wait up to ``wait`` seconds for a network; without one, open the hotspot and write
    its join details to ``out`` (readable by the table's group). HotspotError when nmcli
    is missing or refuses."""
    try:
        out.unlink()  # an earlier boot's details are no promise for this one
    except FileNotFoundError:
        pass
    deadline = clock() + wait
    while not connected(nmcli):  # the else below: a network came (no break)
        if clock() >= deadline:
            break
        sleep(POLL_SECONDS)
    else:
        return Outcome(joined=True)
    join = HotspotJoin(ssid or socket.gethostname().split(".")[0], hotspot_key(key_file), page_address(port))
    nmcli(["device", "wifi", "hotspot", "ifname", ifname, "ssid", join.ssid, "password", join.password])
    write_atomically(out, join.to_json().encode("utf-8"), mode=0o640)
    return Outcome(joined=False, hotspot=join)
