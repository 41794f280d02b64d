"""The questions before the first round, without a table: order, bounds, the camera's count."""

from coyote_pi.devices.events import PRESS, REPEAT, ButtonEvent
from coyote_pi.engine import GameConfig
from coyote_pi.table.config import GameSettings
from coyote_pi.table.setup_wizard import SetupWizard


def _press(wizard: SetupWizard, button: str, seat: int = 1, kind: str = PRESS) -> bool:
    return wizard.press(ButtonEvent(seat, button, kind, 0.0))


def test_only_what_the_configuration_leaves_open_is_asked_in_order():
    assert SetupWizard(GameSettings(), "en").steps == ["players", "variant", "language", "start"]
    assert SetupWizard(GameSettings(players=3, language="de"), "en").steps == ["variant", "start"]
    assert SetupWizard(GameSettings(3, "basic", "en", 2), "en").done


def test_players_stay_within_two_to_six_and_reach_a_configured_start_seat():
    wizard = SetupWizard(GameSettings(start_seat=5), "en")
    assert wizard.values["players"] == 5  # the default 4 would leave seat 5 out
    for _ in range(4):
        _press(wizard, "minus")
    assert wizard.values["players"] == 5
    for _ in range(3):
        _press(wizard, "plus", kind=REPEAT)
    assert wizard.values["players"] == 6


def test_the_stand_count_is_offered_until_a_seat_chooses_by_hand():
    wizard = SetupWizard(GameSettings(), "en")
    assert wizard.count_stands(9) and wizard.values["players"] == 6
    assert wizard.count_stands(3) and wizard.values["players"] == 3
    _press(wizard, "plus")
    assert not wizard.count_stands(5) and wizard.values["players"] == 4


def test_the_language_walks_round_and_the_answers_make_the_game():
    wizard = SetupWizard(GameSettings(players=2, variant="trickster"), "de")
    assert wizard.step == "language" and wizard.language == "de"
    _press(wizard, "plus")
    _press(wizard, "minus")
    _press(wizard, "minus")
    changed = wizard.language
    assert changed != "de"
    _press(wizard, "ok")
    assert not _press(wizard, "ok", seat=3)  # seat 3 does not play in a 2-player game
    assert _press(wizard, "plus", seat=2) and wizard.step == "start"  # only ok answers who starts
    _press(wizard, "ok", seat=2)
    assert wizard.done and wizard.game_config() == GameConfig(2, "trickster", 2)
