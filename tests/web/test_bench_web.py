"""The bench's press-to-browser matching: each press gets the first update written after
it, and a press the next one overtook is left out (which of the two would it show?)."""

from coyote_pi.bench.web import press_delays


def test_each_press_gets_the_first_update_written_after_it_unless_the_next_press_came_first():
    presses = [(0.0, 5), (100.0, 6), (150.0, 7), (300.0, 9)]
    shown = [(40.0, 6), (160.0, 7), (170.0, 8), (200.0, 9)]  # (when shown, seq)
    # 0 -> seq 6 at 40; 100 -> seq 7 at 160, after the next press: left out; 150 -> seq 8 at 170;
    # 300 -> nothing written after seq 9 was shown: left out.
    assert press_delays(presses, shown) == [40.0, 20.0]
