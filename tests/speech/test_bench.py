"""``coyote-pi bench speech`` measures what it says (a few phrases: the figures are the bench's)."""

from __future__ import annotations

from coyote_pi.bench import speech as bench


def test_the_bench_times_each_bid_to_its_first_sample_and_the_loop_while_speaking() -> None:
    first = bench.first_sample_ms(3)
    assert len(first) == 3 and all(0 < ms < 1000 * bench.WAIT_SECONDS for ms in first)
    loop = bench.loop_ms(1)
    assert len(loop) > 20 and all(ms >= 0 for ms in loop)
    median, p99, largest = bench.summary([1.0, 2.0, 3.0, 50.0])
    assert (median, p99, largest) == (2.5, 50.0, 50.0)


def test_the_bench_weighs_espeak_while_it_speaks() -> None:
    assert 1.0 < bench.espeak_peak_mb("Seat 3 bids 17. " * 5) < 200.0
