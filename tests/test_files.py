"""write_atomically: a file replaced whole, keeping its mode, flushed to the card only when it
must outlive a power cut, on FAT too."""

from __future__ import annotations

import errno

import pytest

from coyote_pi import files


@pytest.mark.parametrize("durable, syncs", [(False, 0), (True, 2)])  # durable: the file, then its folder
def test_a_file_is_replaced_whole_and_synced_only_when_durable(tmp_path, monkeypatch, durable, syncs):
    synced = []
    monkeypatch.setattr(files.os, "fsync", lambda fd: synced.append(fd))
    target = tmp_path / "live.json"
    target.write_bytes(b"old")
    files.write_atomically(target, b"new", durable=durable)
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["live.json"]  # no temporary left beside it
    assert len(synced) == syncs


def test_a_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "settings.toml"
    target.write_bytes(b"old")

    def full_disk(source, destination):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", full_disk)
    with pytest.raises(OSError):
        files.write_atomically(target, b"new")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.toml"]  # the temporary is gone too


def test_a_file_gets_exactly_the_mode_asked_for_new_or_replaced(tmp_path):
    target = tmp_path / "hotspot.json"
    files.write_atomically(target, b"{}", mode=0o640)
    assert target.stat().st_mode & 0o777 == 0o640
    target.chmod(0o666)  # an older file, readable by all: the new one is not
    files.write_atomically(target, b"{}", mode=0o600)
    assert target.stat().st_mode & 0o777 == 0o600


def test_a_new_file_without_a_mode_asked_for_follows_the_umask(tmp_path):
    target = tmp_path / "settings.toml"
    files.write_atomically(target, b"")
    assert target.stat().st_mode & 0o777 == 0o666 & ~_umask()


def test_a_replaced_file_keeps_its_mode(tmp_path):
    target = tmp_path / "config.toml"
    target.write_bytes(b"old")
    target.chmod(0o600)
    files.write_atomically(target, b"new")
    assert target.stat().st_mode & 0o777 == 0o600


def test_a_file_system_without_modes_or_folder_syncs_is_written_all_the_same(tmp_path, monkeypatch):
    # FAT, the Pi's boot partition: chmod is refused, and fsync on a folder says EINVAL.
    target = tmp_path / "config.txt"
    target.write_bytes(b"old")

    def no_modes(source, destination):
        raise PermissionError(1, "Operation not permitted")

    def no_folder_sync(fd):
        if files.os.path.isdir(f"/proc/self/fd/{fd}"):
            raise OSError(errno.EINVAL, "Invalid argument")

    monkeypatch.setattr(files.shutil, "copymode", no_modes)
    monkeypatch.setattr(files.os, "fsync", no_folder_sync)
    files.write_atomically(target, b"new", durable=True)
    assert target.read_bytes() == b"new"


def test_a_folder_sync_that_fails_otherwise_is_reported(tmp_path, monkeypatch):
    def failing(fd):
        if files.os.path.isdir(f"/proc/self/fd/{fd}"):
            raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(files.os, "fsync", failing)
    with pytest.raises(OSError, match="Input/output"):
        files.write_atomically(tmp_path / "settings.toml", b"new", durable=True)
    assert (tmp_path / "settings.toml").read_bytes() == b"new"  # renamed; only its durability is in doubt


def test_a_write_that_takes_part_of_the_data_at_a_time_is_finished(tmp_path, monkeypatch):
    real_write = files.os.write
    monkeypatch.setattr(files.os, "write", lambda fd, data: real_write(fd, bytes(data[:3])))
    files.write_atomically(tmp_path / "big", b"0123456789")
    assert (tmp_path / "big").read_bytes() == b"0123456789"


def _umask() -> int:
    import os

    current = os.umask(0)
    os.umask(current)
    return current
