"""The sd_notify client against real AF_UNIX datagram sockets, as systemd listens."""

from __future__ import annotations

import os
import socket

import pytest

from coyote_pi.pi import notify
from coyote_pi.table.notifier import Notifier


@pytest.fixture
def listener(tmp_path, monkeypatch):
    """A datagram socket in tmp_path named by NOTIFY_SOCKET, as systemd sets it up."""
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(5)
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        yield sock


def test_each_message_arrives_as_one_datagram(listener):
    assert notify.ready() and listener.recv(4096) == b"READY=1"
    assert notify.watchdog() and listener.recv(4096) == b"WATCHDOG=1"
    assert notify.stopping() and listener.recv(4096) == b"STOPPING=1"
    assert notify.notify("STATUS=seat 2 bids", "WATCHDOG=1")
    assert listener.recv(4096) == b"STATUS=seat 2 bids\nWATCHDOG=1"


def test_the_module_is_what_the_table_controller_notifies():
    assert isinstance(notify, Notifier)


def test_a_status_stays_on_one_line(listener):
    assert notify.status("round 3\nseat 4 to bid")
    assert listener.recv(4096) == b"STATUS=round 3 seat 4 to bid"


def test_the_abstract_namespace_form(monkeypatch):
    name = f"coyote-pi-test-{os.getpid()}-{id(monkeypatch)}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(b"\0" + name.encode())
        sock.settimeout(5)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert notify.ready()
        assert sock.recv(4096) == b"READY=1"


@pytest.mark.parametrize("value", [None, "", "@", "vsock:2:1234"])
def test_without_a_usable_socket_nothing_happens(monkeypatch, value):
    if value is None:
        monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    else:
        monkeypatch.setenv("NOTIFY_SOCKET", value)
    assert notify.ready() is False
    assert notify.watchdog() is False


def test_a_vanished_socket_is_reported_not_raised(tmp_path, monkeypatch):
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    assert notify.status("still playing") is False


@pytest.mark.parametrize(
    ("usec", "pid", "interval"),
    [
        ("30000000", None, 15.0),
        ("30000000", "self", 15.0),
        ("30000000", "1", None),
        (None, None, None),
        ("0", None, None),
        ("soon", None, None),
    ],
)
def test_the_watchdog_interval_is_half_the_period_for_this_process(monkeypatch, usec, pid, interval):
    for key, value in (("WATCHDOG_USEC", usec), ("WATCHDOG_PID", str(os.getpid()) if pid == "self" else pid)):
        if value is None:
            monkeypatch.delenv(key, raising=False)
        else:
            monkeypatch.setenv(key, value)
    assert notify.watchdog_interval() == interval
