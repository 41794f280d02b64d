"""Draw a text capture of a terminal as a PNG (the README's picture of ``run --sim``).

    tmux new-session -d -s sim -x 80 -y 24 '.venv/bin/coyote-pi run --sim --players 3 --deal "7,3,?,max0" ...'
    tmux send-keys -t sim 3 q q e        # a few presses: seat 1 bids, seat 2 peeks
    tmux capture-pane -p -t sim > capture.txt
    .venv/bin/python docs/images/terminal-screenshot.py capture.txt docs/images/run-sim-80x24.png

Text is drawn with the project's DejaVu Sans, one character a cell; the block, Braille
and box-drawing characters are drawn as pixels so the OLED shows as a terminal shows it.
"""

from __future__ import annotations

import sys

from PIL import Image, ImageDraw

from coyote_pi.devices.render import load_font

CELL_WIDTH, CELL_HEIGHT, MARGIN = 9, 18, 12
PAPER, INK, FRAME = (24, 26, 30), (222, 226, 230), (120, 200, 255)
# Braille dots: (column, row) in a 2x4 cell for each bit.
DOTS = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 3), (1, 3))
BOX = {"─": "lr", "│": "ud", "┌": "rd", "┐": "ld", "└": "ru", "┘": "lu"}


def draw_cell(draw: ImageDraw.ImageDraw, char: str, left: int, top: int, font) -> None:
    right, bottom, middle_x, middle_y = left + CELL_WIDTH, top + CELL_HEIGHT, left + CELL_WIDTH // 2, top + CELL_HEIGHT // 2
    if char in "▀▄█":
        upper = top if char in "▀█" else middle_y
        lower = bottom if char in "▄█" else middle_y
        draw.rectangle([left, upper, right - 1, lower - 1], fill=INK)
    elif 0x2800 < ord(char) <= 0x28FF:
        bits = ord(char) - 0x2800
        for bit, (column, row) in enumerate(DOTS):
            if bits >> bit & 1:
                x, y = left + 1 + column * 4, top + 1 + row * 4
                draw.rectangle([x, y, x + 2, y + 2], fill=INK)
    elif char in BOX:
        ends = {"l": (left, middle_y), "r": (right - 1, middle_y), "u": (middle_x, top), "d": (middle_x, bottom - 1)}
        for end in BOX[char]:
            draw.line([(middle_x, middle_y), ends[end]], fill=FRAME, width=1)
    elif char.strip():
        draw.text((left + CELL_WIDTH / 2, top + CELL_HEIGHT / 2), char, font=font, fill=INK, anchor="mm")


def main(capture: str, out: str) -> None:
    lines = open(capture, encoding="utf-8").read().rstrip("\n").split("\n")
    columns = max(80, max(len(line) for line in lines))
    image = Image.new("RGB", (2 * MARGIN + columns * CELL_WIDTH, 2 * MARGIN + len(lines) * CELL_HEIGHT), PAPER)
    draw, font = ImageDraw.Draw(image), load_font("regular", 14)
    for row, line in enumerate(lines):
        for column, char in enumerate(line):
            draw_cell(draw, char, MARGIN + column * CELL_WIDTH, MARGIN + row * CELL_HEIGHT, font)
    image.save(out, optimize=True)


if __name__ == "__main__":
    main(*sys.argv[1:3])
