"""coyote_pi.memory: the glibc mmap-threshold hook."""

import ctypes.util
import platform

import pytest

from coyote_pi import memory


class FakeGlibc:
    """Records ``mallopt`` calls; answers like glibc (1 = accepted)."""

    def __init__(self, answer: int = 1):
        self.calls: list[tuple[int, int]] = []
        self.answer = answer

    def gnu_get_libc_version(self) -> bytes:
        return b"2.36"

    def mallopt(self, param: int, value: int) -> int:
        self.calls.append((param, value))
        return self.answer


def test_sets_the_mmap_threshold_once():
    libc = FakeGlibc()
    assert memory.tune_malloc(libc) is True
    assert libc.calls == [(memory.M_MMAP_THRESHOLD, memory.MMAP_THRESHOLD_BYTES)]


def test_reports_a_refused_setting():
    assert memory.tune_malloc(FakeGlibc(answer=0)) is False


def test_does_nothing_without_glibc():
    class OtherLibc:  # e.g. musl: has mallopt semantics of its own, no gnu_get_libc_version
        def mallopt(self, param, value):
            raise AssertionError("must not be called")

    assert memory.tune_malloc(OtherLibc()) is False
    assert memory.tune_malloc(object()) is False


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc" or not ctypes.util.find_library("c"), reason="needs glibc")
def test_tunes_this_process_glibc():
    assert memory.tune_malloc() is True
