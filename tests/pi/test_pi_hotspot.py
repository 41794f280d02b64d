"""``coyote-pi hotspot`` against a fake ``nmcli`` on PATH: connected, alone (the hotspot
opens and its join details are left for the table), nmcli missing, nmcli failing."""

from __future__ import annotations

import json
import os
import stat
import sys
import textwrap
from pathlib import Path

import pytest

from coyote_pi.cli import main as coyote_pi
from coyote_pi.pi import hotspot
from coyote_pi.table.web_access import HotspotJoin

#: A stand-in nmcli: FAKE_NMCLI says how the network looks; every call is logged.
FAKE_NMCLI = textwrap.dedent("""\
    #!{python}
    import os, sys
    with open(os.environ["FAKE_NMCLI_LOG"], "a") as log:
        log.write(" ".join(sys.argv[1:]) + "\\n")
    mode = os.environ["FAKE_NMCLI"]
    if sys.argv[1:] == ["-t", "-f", "TYPE,STATE", "device"]:
        wifi = "connected" if mode == "connected" else "disconnected"
        print("wifi:" + wifi + "\\nethernet:unavailable\\nloopback:connected (externally)")
    elif sys.argv[1:4] == ["device", "wifi", "hotspot"]:
        if mode == "failing":
            print("Error: Connection activation failed: No suitable device found.", file=sys.stderr)
            sys.exit(4)
        print("Device 'wlan0' successfully activated with 'f1d2-...'.")
    else:
        sys.exit(2)
""")


@pytest.fixture
def nmcli(tmp_path, monkeypatch):
    """Put the stand-in nmcli first on PATH; returns a function that sets its mode and reads its log."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "nmcli"
    script.write_text(FAKE_NMCLI.format(python=sys.executable))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    log = tmp_path / "nmcli.log"
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_NMCLI_LOG", str(log))

    def calls(mode: str | None = None) -> list[str]:
        if mode is not None:
            monkeypatch.setenv("FAKE_NMCLI", mode)
        return log.read_text().splitlines() if log.exists() else []

    return calls


def _hotspot(tmp_path: Path, *more: str) -> int:
    return coyote_pi(["hotspot", "--out", str(tmp_path / "run/hotspot.json"), "--key-file", str(tmp_path / "key"),
                      "--wait", "0", "--ssid", "coyote-pi", *more])


def test_a_connected_device_opens_no_hotspot(tmp_path, nmcli, capsys):
    nmcli("connected")
    (tmp_path / "run").mkdir()
    (tmp_path / "run/hotspot.json").write_text("from an earlier boot")
    assert _hotspot(tmp_path) == 0
    assert nmcli() == ["-t -f TYPE,STATE device"]
    assert not (tmp_path / "run/hotspot.json").exists()
    assert "a known network is connected; no hotspot" in capsys.readouterr().out


def test_alone_the_hotspot_opens_and_the_table_gets_its_join_details(tmp_path, nmcli, capsys):
    nmcli("alone")
    (tmp_path / "run").mkdir()
    config = tmp_path / "config.toml"
    config.write_text('[web]\nlisten = "0.0.0.0:8080"\n')
    assert _hotspot(tmp_path, "--config", str(config)) == 0
    join = HotspotJoin.read(tmp_path / "run/hotspot.json")
    assert join.ssid == "coyote-pi" and join.url == "http://10.42.0.1:8080/"
    assert len(join.password) == 9 and join.password[4] == "-"
    assert nmcli()[-1] == f"device wifi hotspot ifname wlan0 ssid coyote-pi password {join.password}"
    assert (tmp_path / "run/hotspot.json").stat().st_mode & 0o777 == 0o640  # the table's group, not the page's user
    assert (tmp_path / "key").stat().st_mode & 0o777 == 0o600
    assert "hotspot 'coyote-pi' is open, the page at http://10.42.0.1:8080/" in capsys.readouterr().out
    # The next boot keeps the key: a phone that joined once joins again.
    assert _hotspot(tmp_path) == 0
    assert json.loads((tmp_path / "run/hotspot.json").read_text())["password"] == join.password


def test_without_nmcli_there_is_no_hotspot_and_one_line_says_why(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    assert _hotspot(tmp_path) == 1
    assert capsys.readouterr().err.strip() == (
        "coyote-pi hotspot: no hotspot: nmcli not found: NetworkManager (Raspberry Pi OS's network stack) is not installed"
    )


def test_a_failing_nmcli_is_said_in_its_own_words(tmp_path, nmcli, capsys):
    nmcli("failing")
    (tmp_path / "run").mkdir()
    assert _hotspot(tmp_path) == 1
    assert capsys.readouterr().err.strip() == ("coyote-pi hotspot: no hotspot: nmcli device wifi hotspot failed: "
                                               "Error: Connection activation failed: No suitable device found.")
    assert not (tmp_path / "run/hotspot.json").exists()


def test_a_network_that_comes_while_waiting_is_taken_and_a_late_one_is_not(tmp_path):
    def network_after(polls: int):
        answers = iter(["wifi:disconnected"] * polls + ["wifi:connected"] * 10)
        called = []

        def nmcli(argv):
            called.append(argv)
            return next(answers) if argv[0] == "-t" else ""
        return nmcli, called

    now = [0.0]

    def sleep(seconds):
        now[0] += seconds

    nmcli, called = network_after(2)
    outcome = hotspot.open_if_alone(tmp_path / "j.json", tmp_path / "key", wait=45, nmcli=nmcli, sleep=sleep,
                                    clock=lambda: now[0])
    assert outcome.joined and now[0] == 2 * hotspot.POLL_SECONDS and len(called) == 3
    now[0] = 0.0
    nmcli, called = network_after(100)
    outcome = hotspot.open_if_alone(tmp_path / "j.json", tmp_path / "key", wait=10, nmcli=nmcli, sleep=sleep,
                                    clock=lambda: now[0], ssid="t")
    assert not outcome.joined and called[-1][:3] == ["device", "wifi", "hotspot"] and now[0] >= 10
