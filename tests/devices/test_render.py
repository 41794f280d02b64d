"""Screens drawn for the OLED: checked by their pixels, region by region."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from coyote_pi.devices.render import (
    COYOTE_MARK,
    ELLIPSIS,
    EYE_CLOSED,
    EYE_OPEN,
    ScreenRenderer,
    fit_width,
    load_font,
    wrap_text,
)
from coyote_pi.devices.screen import Screen, SeatStatus

R = ScreenRenderer((128, 64))
TITLE_ROWS = slice(0, R.TITLE_HEIGHT - 1)
STRIP_TOP = 64 - R.STRIP_HEIGHT


def pixels(image: Image.Image) -> np.ndarray:
    return np.array(image, dtype=bool)


def lit(icon: tuple[str, ...]) -> int:
    return sum(row.count("#") for row in icon)


def glyph_pixels(style: str, text: str) -> np.ndarray:
    font = load_font(style, 20)
    image = Image.new("1", (40, 30))
    from PIL import ImageDraw

    ImageDraw.Draw(image).text((2, 2), text, font=font, fill=1)
    return pixels(image)


@pytest.mark.parametrize("style", ["regular", "bold"])
def test_shipped_fonts_have_umlaut_and_cyrillic_glyphs(style):
    missing = glyph_pixels(style, "\ue000")  # private use: no glyph, the font draws its .notdef box
    for char in "ÄЖöй":
        drawn = glyph_pixels(style, char)
        assert drawn.sum() > 20, char
        assert not np.array_equal(drawn, missing), f"{char} is drawn as a missing glyph"
    assert not np.array_equal(glyph_pixels(style, "Ä"), glyph_pixels(style, "A"))  # the dots are there


def test_title_big_and_lines_land_in_their_bands():
    image = pixels(R.render(Screen(title="Seat 2 bids", big="17", lines=["ok: bid"])))
    assert image[TITLE_ROWS].sum() > 40  # the title text
    assert image[R.TITLE_HEIGHT - 1].all()  # the rule under the title
    lines_top = 64 - R.pitch
    big = image[R.TITLE_HEIGHT : lines_top]
    rows, cols = np.nonzero(big)
    assert rows.max() - rows.min() + 1 >= 16  # big digits: readable across a table
    assert abs((cols.min() + cols.max()) / 2 - 63.5) <= 2  # centred
    assert image[lines_top:].sum() > 20


def test_big_text_alone_fills_the_screen():
    rows, cols = np.nonzero(pixels(R.render(Screen(big="42"))))
    assert rows.max() - rows.min() + 1 >= 40
    assert cols.min() >= 0 and cols.max() <= 127


def test_big_text_too_long_is_shortened_with_an_ellipsis():
    text = "Достопримечательность" * 3
    image = pixels(R.render(Screen(big=text)))
    assert image[:, 0].sum() + image[:, 127].sum() <= 2 * 64  # nothing drawn beyond the edges
    assert fit_width(text, load_font("bold", 10), 126).endswith(ELLIPSIS)


def test_seat_strip_draws_eyes_turn_coyote_and_eliminated_seats():
    seats = [
        SeatStatus(1, open_eyes=2, closed_eyes=1),
        SeatStatus(2, open_eyes=1, closed_eyes=0, is_turn=True),
        SeatStatus(3, active=False),
        SeatStatus(4, open_eyes=0, closed_eyes=3, holds_coyote=True),
    ]
    image = pixels(R.render(Screen(seats=seats)))
    assert image[STRIP_TOP].all()  # the rule above the strip
    cell = 128 // 4
    eyes = slice(64 - len(EYE_OPEN) - 1, 64 - 1)
    assert image[eyes, 0:cell].sum() == 2 * lit(EYE_OPEN) + lit(EYE_CLOSED)
    turn = image[STRIP_TOP + 1 :, cell : 2 * cell - 1]
    assert turn.mean() > 0.6  # the turn's cell is inverted: mostly lit
    assert (~turn[eyes.start - STRIP_TOP - 1 : eyes.stop - STRIP_TOP - 1]).sum() == lit(EYE_OPEN)
    out = image[STRIP_TOP + 1 :, 2 * cell : 3 * cell]
    assert out[eyes.start - STRIP_TOP - 1 :].sum() == 0  # no eyes for a seat out of the game
    assert max(out[row].sum() for row in range(out.shape[0])) >= cell - 4  # struck through
    fourth = image[STRIP_TOP + 1 :, 3 * cell :]
    assert fourth[eyes.start - STRIP_TOP - 1 :].sum() == 3 * lit(EYE_CLOSED)
    mark = fourth[1 : 1 + len(COYOTE_MARK), cell - 8 :]
    assert mark.sum() == lit(COYOTE_MARK)


def test_alert_is_the_exact_inverse():
    screen = Screen(title="Seat 3", big="Card?", lines=["Show your card to the camera"])
    normal = pixels(R.render(screen))
    alert = pixels(R.render(Screen(title="Seat 3", big="Card?", lines=["Show your card to the camera"], alert=True)))
    assert np.array_equal(alert, ~normal)


def test_long_lines_are_wrapped_and_paged_with_a_page_mark():
    words = ("Die Summe ist 23 und das Gebot war 25, also verliert Sitz 4 ein Auge. " * 3).split()
    screen = Screen(title="Prüfung", big="Sitz 4", lines=[" ".join(words)])
    count = R.page_count(screen)
    assert count >= 3
    pages = [R.render(Screen(title="Prüfung", big="Sitz 4", lines=[" ".join(words)], page=p)) for p in range(count)]
    assert len({page.tobytes() for page in pages}) == count
    # page numbers wrap around, so a controller can simply count up
    wrapped = Screen(title="Prüfung", big="Sitz 4", lines=[" ".join(words)], page=count)
    assert R.render(wrapped).tobytes() == pages[0].tobytes()
    mark_area = pixels(pages[1])[TITLE_ROWS, 100:]
    assert mark_area.sum() > 10  # "2/N" at the right of the title
    title_only = pixels(R.render(Screen(title="Prüfung", big="Sitz 4")))[TITLE_ROWS, 100:]
    assert title_only.sum() == 0


def test_paged_lines_without_a_title_get_a_title_row_for_the_mark():
    screen = Screen(lines=["Объяснение: сумма карт 23, ставка 25 была выше, поэтому игрок 4 теряет глаз."] * 2)
    assert R.page_count(screen) == 2
    assert pixels(R.render(screen))[R.TITLE_HEIGHT - 1].all()


def test_wrap_text_keeps_every_word_and_the_width():
    font = load_font("regular", 10)
    text = "Der Kojote heult: Überbieten oder anzweifeln? Переосвидетельствование"
    rows = wrap_text(text, font, 120)
    assert all(font.getlength(row) <= 120 for row in rows)
    assert "".join(rows).replace(" ", "") == text.replace(" ", "")
    assert wrap_text("a\nb", font, 120) == ["a", "b"]


@pytest.mark.parametrize("size", [(256, 64), (128, 128), (256, 128)])
def test_larger_panels_use_their_space(size):
    screen = Screen(title="Seat 2", big="17", seats=[SeatStatus(n, 2, 1, is_turn=n == 2) for n in range(1, 7)])
    small = pixels(R.render(screen))
    large = pixels(ScreenRenderer(size).render(screen))
    assert large.shape == (size[1], size[0])
    assert large.sum() > small.sum()
    if size == (256, 128):  # a whole step larger: every pixel drawn as 2x2
        eyes = large[-2 * (len(EYE_OPEN) + 1) :, : 256 // 6]
        assert eyes.sum() == 4 * (2 * lit(EYE_OPEN) + lit(EYE_CLOSED))


def test_empty_screen_is_blank():
    assert not pixels(R.render(Screen())).any()


def test_bad_models_are_refused():
    with pytest.raises(ValueError):
        SeatStatus(1, open_eyes=-1)
    with pytest.raises(ValueError):
        Screen(page=-1)
    assert Screen(lines=["a", "b"]).lines == ("a", "b")
