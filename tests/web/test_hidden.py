"""Hidden information: the page never sends a card of an open round.

A scripted game is played at a simulated physical table (the cards are observed, the
reveal photos kept) while the page is served: after every event the test reads the
table page and every server-sent event, and checks each card they show against the
cards of the round in play, which the simulation knows."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from coyote_pi.web.bulletin import Folders
from tests.web.conftest import (
    Client,
    Events,
    assert_no_open_card,
    html_cards,
    json_cards,
    open_round_number,
    served,
    spectated,
)


def test_no_page_and_no_message_shows_a_card_of_the_open_round(tmp_path):
    game = spectated(tmp_path, players=4, variant="trickster", seed=5)
    with served(Folders.beside(tmp_path / "games")) as port:
        client, events = Client(port), Events(port).start()
        checked_open, closed_cards = 0, 0
        while game.step() is not None:
            events.wait_for(lambda data: data["seq"] == game.seq)
            page = client.get("/").text
            message = events.messages[-1][1]
            closed_cards += assert_no_open_card(game, html=page, message=message)
            closed_cards += assert_no_open_card(game, html=message["html"])
            checked_open += open_round_number(game) is not None
        events.close()
        # Every message, also those superseded before the check above read them.
        for _, message in events.messages:
            assert "html" in message
        assert_every_message_clean(events.messages)
    assert checked_open > 10 and closed_cards > 30  # the check saw open rounds and closed rounds' cards
    assert game.game.winner is not None


def assert_every_message_clean(messages) -> None:
    """No message at all held a card of the round it was sent in (its live state says which)."""
    for _, message in messages:
        state = message["state"]
        if state["round_open"]:
            shown = html_cards(message["html"]) + json_cards(message)
            assert [card for card in shown if card[1] == state["round"]] == []


IMPORTS = textwrap.dedent("""
    import sys
    from pathlib import Path
    from coyote_pi.web.app import create_app
    from coyote_pi.web.bulletin import Folders
    from coyote_pi.commands import web
    create_app(Folders.beside(Path(sys.argv[1])))
    heavy = sorted(name for name in sys.modules if name.split(".")[0] in ("numpy", "cv2", "PIL", "picamera2",
                   "gpiozero", "luma") or name.startswith(("coyote_pi.vision", "coyote_pi.devices", "coyote_pi.sim", "coyote_pi.table")))
    print(heavy)
""")


def test_the_page_never_loads_the_table_the_camera_the_devices_numpy_or_opencv(tmp_path):
    # The table's configuration and words sit below the table (coyote_pi.config and
    # coyote_pi.words), so the page's process has no way to reach the controller's state.
    done = subprocess.run([sys.executable, "-c", IMPORTS, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
