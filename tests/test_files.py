"""write_atomically: a file replaced whole, flushed to the card only when it must outlive a power cut."""

from __future__ import annotations

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


def test_a_new_file_gets_the_mode_asked_for(tmp_path):
    target = tmp_path / "hotspot.json"
    files.write_atomically(target, b"{}", mode=0o640)
    assert target.stat().st_mode & 0o777 == 0o640 & ~_umask()


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
