"""The web page beside a simulated table: its command line, and no page process outlives
the table (stopped at the end, killed if it will not stop, gone if the table is killed)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

import pytest

from coyote_pi.cli import main as coyote_pi
from coyote_pi.sim import web_page
from coyote_pi.sim.web_page import WebPage, address_taken, page_command

#: A stand-in page: says its pid, then waits; with "stubborn" it ignores SIGTERM.
FAKE_PAGE = textwrap.dedent("""
    import os, signal, sys, time
    if "stubborn" in sys.argv:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    open(sys.argv[1], "w").write(str(os.getpid()))
    time.sleep(60)
""")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (its parent has not reaped it yet) is dead too
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except OSError:
        return False


def _pid_from(path: Path, timeout: float = 10.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text():
            return int(path.read_text())
        time.sleep(0.02)
    pytest.fail(f"the stand-in page never wrote {path}")


def _fake(tmp_path: Path, *flags: str) -> WebPage:
    script = tmp_path / "page.py"
    script.write_text(FAKE_PAGE)
    return WebPage(tmp_path / "games", tmp_path / "public", tmp_path / "requests", "127.0.0.1:8080",
                   tmp_path / "web.log", command=[sys.executable, str(script), str(tmp_path / "pid"), *flags])


def test_the_page_is_the_web_command_on_the_tables_folders(tmp_path):
    command = page_command(tmp_path / "games", tmp_path / "public", tmp_path / "requests", "127.0.0.1:9000")
    assert command == [sys.executable, "-m", "coyote_pi", "web", "--records", str(tmp_path / "games"),
                       "--bulletin", str(tmp_path / "public"), "--requests", str(tmp_path / "requests"),
                       "--listen", "127.0.0.1:9000", "--simulated-table"]
    page = WebPage(tmp_path / "games", tmp_path / "public", tmp_path / "requests", "127.0.0.1:9000", tmp_path / "w.log")
    assert page.url == "http://127.0.0.1:9000/" and (tmp_path / "public").is_dir() and (tmp_path / "requests").is_dir()


def test_the_page_stops_with_the_block(tmp_path):
    with _fake(tmp_path) as page:
        pid = _pid_from(tmp_path / "pid")
        assert _alive(pid)
    assert not _alive(pid) and page.process is None


def test_a_page_that_ignores_sigterm_is_killed(tmp_path, monkeypatch):
    monkeypatch.setattr(web_page, "STOP_SECONDS", 0.3)
    page = _fake(tmp_path, "stubborn").start()
    pid = _pid_from(tmp_path / "pid")
    process = page.process
    assert page.stop() is None and process.returncode == -signal.SIGKILL
    assert not _alive(pid)


def test_a_page_that_ended_by_itself_is_told_with_its_log(tmp_path):
    page = WebPage(tmp_path / "games", tmp_path / "public", tmp_path / "requests", "127.0.0.1:8080",
                   tmp_path / "web.log", command=[sys.executable, "-c", "import sys; sys.exit('no page here')"])
    page.start().process.wait(30)
    assert not page.serving()
    assert page.stop() == 1  # its exit status, which run and demo tell with the log
    assert "no page here" in (tmp_path / "web.log").read_text()


def test_run_sim_shows_where_the_page_is_and_that_it_stopped_while_the_table_runs(tmp_path):
    from argparse import Namespace

    from coyote_pi.commands.run import _watch_page
    from coyote_pi.words.translator import Translator

    page = WebPage(tmp_path / "games", tmp_path / "public", tmp_path / "requests", "127.0.0.1:8080",
                   tmp_path / "web.log", command=[sys.executable, "-c", "import sys, time; time.sleep(1); sys.exit(3)"])
    shown: list[str] = []
    _watch_page(page.start(), Namespace(web="127.0.0.1:8080"), Translator("en"), shown.append)
    deadline = time.monotonic() + 30
    while len(shown) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert shown == [f"the table's web page: http://127.0.0.1:8080/ (its log: {tmp_path / 'web.log'})",
                     f"the web page stopped (exit status 3): see {tmp_path / 'web.log'}"]
    page.stop()
    stopped: list[str] = []
    _watch_page(None, Namespace(web="127.0.0.1:8093"), Translator("ru"), stopped.append)
    assert stopped == ["веб-страницы нет: адрес 127.0.0.1:8093 занят другой программой"]


def test_an_address_another_program_listens_at_is_taken(tmp_path):
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        address = f"127.0.0.1:{other.getsockname()[1]}"
        assert address_taken(address)
    assert not address_taken(address)  # let go: free for the page


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_killed_table_leaves_no_page_behind(tmp_path):
    script = tmp_path / "page.py"
    script.write_text(FAKE_PAGE)
    table = textwrap.dedent(f"""
        import sys, time
        from pathlib import Path
        from coyote_pi.sim.web_page import WebPage
        base = Path({str(tmp_path)!r})
        WebPage(base / "games", base / "public", base / "requests", "127.0.0.1:8080", base / "web.log",
                command=[sys.executable, {str(script)!r}, str(base / "pid")]).start()
        time.sleep(60)
    """)
    parent = subprocess.Popen([sys.executable, "-c", table])
    try:
        pid = _pid_from(tmp_path / "pid", timeout=30)
        parent.kill()  # no finally, no with-block: only the kernel can stop the page now
        parent.wait()
        deadline = time.monotonic() + 10
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(pid)
    finally:
        parent.kill()


def test_run_sim_web_starts_the_real_page_command_and_leaves_no_child(tmp_path, capsys, monkeypatch):
    started: list[WebPage] = []
    real_start = WebPage.start

    def remembering_start(self):
        started.append(self)
        return real_start(self)

    monkeypatch.setattr(WebPage, "start", remembering_start)
    status = coyote_pi(["run", "--sim", "--scripted", "--no-view", "--record-dir", str(tmp_path), "--players", "2",
                        "--seed", "3", "--camera-size", "640x360", "--web", "127.0.0.1:18431"])
    assert status == 0
    (page,) = started
    assert page.command[1:5] == ["-m", "coyote_pi", "web", "--records"] and page.process is None
    said = capsys.readouterr().err
    assert "the table's web page: http://127.0.0.1:18431/" in said
    live = json.loads((tmp_path / "public" / "live.json").read_text())
    assert live["stage"] == "over" and live["web"]["url"] == "http://127.0.0.1:18431/"


def test_run_sim_web_at_an_address_another_program_holds_says_so_and_starts_no_page(tmp_path, capsys, monkeypatch):
    started: list[WebPage] = []
    monkeypatch.setattr(WebPage, "start", lambda self: started.append(self) or self)
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        listen = f"127.0.0.1:{other.getsockname()[1]}"
        status = coyote_pi(["run", "--sim", "--scripted", "--no-view", "--record-dir", str(tmp_path), "--players", "2",
                            "--seed", "3", "--camera-size", "640x360", "--web", listen, "--language", "de"])
    assert status == 0 and started == []
    said = capsys.readouterr().err
    assert f"coyote-pi run --sim: keine Webseite: {listen} ist von einem anderen Programm belegt" in said
    assert "web page" not in said


def test_run_without_sim_refuses_web(tmp_path, capsys):
    assert coyote_pi(["run", "--record-dir", str(tmp_path), "--web"]) == 2
    assert "--web serves the simulated table's page: use it with --sim" in capsys.readouterr().err


def test_the_page_answers_while_the_simulated_table_plays(tmp_path):
    listen = "127.0.0.1:18432"
    table = subprocess.Popen([sys.executable, "-m", "coyote_pi", "run", "--sim", "--scripted", "--no-view",
                              "--record-dir", str(tmp_path), "--players", "2", "--seed", "3", "--camera-size",
                              "640x360", "--web", listen], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline, status = time.monotonic() + 60, None
        while status is None and time.monotonic() < deadline and table.poll() is None:
            try:
                with urllib.request.urlopen(f"http://{listen}/", timeout=2) as response:
                    status = response.status
            except OSError:
                time.sleep(0.2)
        assert status == 200
    finally:
        table.terminate()
        table.wait(30)
