"""The table's configuration file and flags, and the one-line errors of the commands."""

from __future__ import annotations

import argparse
import dataclasses
from importlib import resources
from pathlib import Path

import pytest

from coyote_pi.cli import main as coyote_pi
from coyote_pi.commands import run as run_command
from coyote_pi.config import (
    ConfigError,
    GameSettings,
    Pacing,
    TableConfig,
    load_config,
    load_config_text,
    page_settings_text,
    page_values,
    with_page_settings,
)

EXAMPLE = Path(str(resources.files("coyote_pi").joinpath("data", "coyote-pi.example.toml")))


def test_the_shipped_example_is_valid_and_documents_the_defaults():
    config = load_config(EXAMPLE)
    assert config.game == GameSettings()  # everything asked at the table
    assert config.pacing == Pacing()
    assert config.record_dir == Path("/var/lib/coyote-pi/games")
    assert config.scheme == "aruco"
    assert config.keep_photos_games == TableConfig().keep_photos_games == 50
    assert set(config.devices) == {"display", "buttons", "camera"}


def test_the_example_and_its_device_sections_open_through_run(tmp_path):
    parser = argparse.ArgumentParser()
    run_command.configure(parser)  # the command's own options, so a new one cannot be missed here
    args = parser.parse_args(["--config", str(EXAMPLE), "--players", "3", "--variant", "trickster", "--language", "ru",
                              "--start-seat", "2", "--record-dir", str(tmp_path)])
    config, devices = run_command._settings(args)
    assert config.game == GameSettings(3, "trickster", "ru", 2)  # flags override the file
    assert config.record_dir == tmp_path
    assert devices.display.driver == "ssd1306" and devices.camera.backend == "picamera2"
    # The Pi's page: what the units make and read (systemd/coyote-pi.service, coyote-pi-hotspot.service).
    assert config.web.enabled and config.web.listen == "0.0.0.0:80"
    assert config.web_folders() == (Path("/run/coyote-pi/public"), Path("/var/lib/coyote-pi-web/requests"))
    assert config.web.hotspot_file == Path("/run/coyote-pi-hotspot/hotspot.json")
    # In the table's state folder (StateDirectory=coyote-pi): the page's user cannot write it.
    assert config.page_settings_file() == Path("/var/lib/coyote-pi/page-settings.toml")


def test_the_web_section_has_defaults_beside_the_records_and_an_address_from_the_host_name(tmp_path, monkeypatch):
    config = load_config_text(f'[record]\ndir = "{tmp_path / "games"}"\n')
    assert not config.web.enabled
    assert config.web_folders() == (tmp_path / "public", tmp_path / "requests")
    assert config.page_settings_file() == tmp_path / "page-settings.toml"
    monkeypatch.setattr("socket.gethostname", lambda: "coyote-pi.lan")
    assert config.web.address() == "http://coyote-pi.local/"
    assert config.with_web(listen="0.0.0.0:8080").web.address() == "http://coyote-pi.local:8080/"
    assert config.with_web(listen="127.0.0.1:8080").web.address() == "http://127.0.0.1:8080/"
    assert config.with_web(listen="[::1]:80").web.address() == "http://[::1]/"
    assert config.with_web(url="http://table.example/").web.address() == "http://table.example/"


@pytest.mark.parametrize("text,message", [
    ("[web]\nenabled = 1\n", "t.toml: [web] enabled must be true or false, not 1"),
    ('[web]\nlisten = "80"\n', "t.toml: [web] listen: the listen address must look like 0.0.0.0:80 or "
                                 "127.0.0.1:8080, not '80'"),
    ('[web]\nlisten = "0.0.0.0:70000"\n', "t.toml: [web] listen: the listen address must look like 0.0.0.0:80 or "
                                           "127.0.0.1:8080, not '0.0.0.0:70000'"),
    ('[web]\nurl = "coyote.local"\n', "t.toml: [web] url must start with http:// or https://, or be \"\", "
                                       "not 'coyote.local'"),
    ("[web]\nbulletin = 3\n", "t.toml: [web] bulletin must be a folder path, not 3"),
    ("[web]\nport = 80\n", "t.toml: [web] has an unknown key 'port' (known: enabled, listen, url, bulletin, "
                            "requests, hotspot_file, page_settings)"),
])
def test_web_mistakes_name_the_key(text, message):
    with pytest.raises(ConfigError) as caught:
        load_config_text(text, source="t.toml")
    assert str(caught.value) == message


@pytest.mark.parametrize("text,message", [
    ("[game]\nplayers = 3\n", "[game] players is not settable from the web page"),
    ('[game]\nlanguage = "de"\n', "[game] language is not settable from the web page"),
    ('[buttons]\npinmap = "/etc/passwd"\n', "[buttons] is not settable from the web page"),
    ('[record]\ndir = "/tmp"\n', "[record] is not settable from the web page"),
    ("[game]\nstart_seat = 5\n", "[game] start_seat 5 is not one of the 4 seats"),
    ("[table]\npage_seconds = 0\n", "[table] page_seconds must be 0.5 to 60, not 0"),
    ("table = 3\n", "[table] is not settable from the web page"),
    ("[table\n", "not valid TOML"),
    ("#" * 20_000, "larger than 16384 characters"),
])
def test_settings_from_the_web_page_are_checked_like_the_file_and_refused_whole(text, message):
    config = TableConfig(game=GameSettings(players=4))
    with pytest.raises(ConfigError) as caught:
        with_page_settings(config, text)
    assert str(caught.value).startswith("settings.toml: " + message)


def test_settings_from_the_web_page_change_only_what_they_name():
    config = TableConfig(game=GameSettings(players=4, language="de"))
    changed = with_page_settings(config, "[game]\nstart_seat = 3\n[table]\nverdict_seconds = 20\nkeep_photos_games = 5\n")
    assert changed.game == GameSettings(4, None, "de", 3)
    assert changed.pacing == dataclasses.replace(config.pacing, verdict_seconds=20)
    assert changed.keep_photos_games == 5 and changed.record_dir == config.record_dir


def test_the_page_settable_values_written_as_toml_read_back_as_they_were():
    config = TableConfig(game=GameSettings(players=4)).with_pacing(camera_interval=0.25, page_seconds=6)
    config = config.with_game(start_seat=3, virtual="2:cautious,4:strong").replace(keep_photos_games=7)
    values = page_values(config)
    assert values["game"] == {"start_seat": 3, "virtual": "2:cautious,4:strong"}
    assert values["table"]["camera_interval"] == 0.25
    assert with_page_settings(TableConfig(), page_settings_text(values)) == TableConfig().with_pacing(
        **dataclasses.asdict(config.pacing)).with_game(start_seat=3, virtual="2:cautious,4:strong").replace(
        keep_photos_games=7)
    asking = page_values(TableConfig())
    assert asking["game"] == {"start_seat": "ask", "virtual": "none"}
    assert with_page_settings(config, page_settings_text(asking)).game == GameSettings(players=4)
    assert page_settings_text({"game": {}, "table": {}}) == ""


@pytest.mark.parametrize("proposed,error", [
    ('virtual = "3:wizard"', "settings.toml: [game] virtual seat '3:wizard': unknown level 'wizard' (levels: "
                             "strong, cautious, bluffer; baselines (bench opponents): raise-by-one, half-odds)"),
    ('virtual = "5:strong"', "settings.toml: [game] virtual seat 5 is not one of the 4 seats"),
    ("virtual = 3", 'settings.toml: [game] virtual must be text such as "3:strong", not 3'),
])
def test_a_virtual_seat_the_page_proposes_is_checked_as_the_configuration_file_s(proposed, error):
    config = TableConfig(game=GameSettings(players=4))
    with pytest.raises(ConfigError) as raised:
        with_page_settings(config, f"[game]\n{proposed}\n")
    assert str(raised.value) == error
    with pytest.raises(ConfigError) as from_file:
        load_config_text(f"[game]\nplayers = 4\n{proposed}\n", source="settings.toml")
    assert str(from_file.value) == error
    assert with_page_settings(config, '[game]\nvirtual = "3"\n').game.virtual == "3:strong"


def test_relative_record_folders_are_relative_to_the_file(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text('[record]\ndir = "games"\n[game]\nplayers = 5\nstart_seat = 4\n', encoding="utf-8")
    config = load_config(path)
    assert config.record_dir == tmp_path / "games" and config.game.start_seat == 4


@pytest.mark.parametrize("text,message", [
    ("[game]\nplayers = 7\n", "t.toml: [game] players must be 2 to 6, not 7"),
    ("[game]\nplayers = 3\nstart_seat = 5\n", "t.toml: [game] start_seat 5 is not one of the 3 seats"),
    ('[game]\nvariant = "turbo"\n', "t.toml: [game] variant must be one of 'basic', 'trickster', not 'turbo'"),
    ('[game]\nlanguage = "fr"\n', "t.toml: [game] language must be one of 'en', 'de', 'ru', not 'fr'"),
    ("[table]\ncamera_interval = -1\n", "t.toml: [table] camera_interval must be 0 to 60, not -1"),
    ('[table]\nstable_reads = "two"\n', "t.toml: [table] stable_reads must be a whole number, not 'two'"),
    ("[table]\nspeed = 3\n", "t.toml: [table] has an unknown key 'speed'"),
    ("[tabel]\n", "t.toml: unknown section [tabel]"),
    ('[vision]\nscheme = "barcode"\n', "t.toml: [vision] scheme must be one of 'aruco', 'qr', not 'barcode'"),
    ("[record]\ndir = 3\n", "t.toml: [record] dir must be a folder path, not 3"),
    ("[table]\nkeep_photos_games = -1\n", "t.toml: [table] keep_photos_games must be 0 to 100000, not -1"),
    ("[game\n", "t.toml: not valid TOML"),
])
def test_a_bad_file_names_the_key_in_one_line(text, message):
    with pytest.raises(ConfigError) as caught:
        load_config_text(text, source="t.toml")
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


@pytest.mark.parametrize("text,flags,message", [
    ('[camera]\nbackend = "kinect"\n', [], "[camera] backend must be one of"),
    ("", ["--players", "9"], "flags: [game] players must be 2 to 6, not 9"),
    ("", ["--start-seat", "first"], '--start-seat must be a seat number or "ask"'),
    ("", ["--sim", "--camera-size", "big"], "--camera-size must look like 2304x1296"),
])
def test_run_reports_bad_configuration_in_one_line(tmp_path, capsys, text, flags, message):
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    assert coyote_pi(["run", "--config", str(path), "--record-dir", str(tmp_path), *flags]) == 2
    error = capsys.readouterr().err.strip()
    assert message in error and error.startswith("coyote-pi run: ") and "\n" not in error


def test_run_reports_a_missing_file(tmp_path, capsys):
    assert coyote_pi(["run", "--config", str(tmp_path / "nope.toml")]) == 2
    assert "cannot read the configuration" in capsys.readouterr().err
