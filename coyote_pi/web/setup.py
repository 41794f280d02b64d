"""What the setup page may propose to the table, and the device's log.

The page may propose exactly what the table takes from it
(:data:`coyote_pi.table.config.PAGE_SETTABLE`): the table's pacing and how many games
keep their photos (``[table]``), and who starts the next game (``[game] start_seat``).
The players, the variant, the language, the card stickers' scheme and the GPIO pins are
set at the table or in its configuration file. Only the settings a person changed are
proposed (the others stay as the table has them), checked with the validator the table
itself applies to the page's settings (:func:`coyote_pi.table.config.with_page_settings`)
and written atomically to ``requests/settings.toml``; the table checks them again,
applies them when the next game starts and deletes the file, or says why not in the
bulletin's ``settings-result.json``.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from coyote_pi.table.config import PAGE_SETTABLE, ConfigError, Pacing, TableConfig, load_config, with_page_settings

#: The settings the page offers, (section, key): the ones the table takes from it.
EDITABLE: tuple[tuple[str, str], ...] = tuple((section, key) for section, keys in PAGE_SETTABLE.items() for key in keys)
#: The log's last lines, when the system has a journal (the page's user reads it through
#: the systemd-journal group).
JOURNAL = ("journalctl", "-u", "coyote-pi", "-n", "50", "--no-pager", "-o", "short-iso")


@dataclass(frozen=True)
class Field:
    section: str
    key: str
    value: object

    @property
    def name(self) -> str:
        return f"{self.section}.{self.key}"


def current_fields(config_file: Path | None) -> list[Field]:
    """The editable settings with their values in the table's configuration file (read
    only; the defaults when there is none or it cannot be read)."""
    try:
        config = load_config(config_file) if config_file and Path(config_file).is_file() else TableConfig()
    except ConfigError:
        config = TableConfig()
    values = {("table", f.name): getattr(config.pacing, f.name) for f in dataclasses.fields(Pacing)}
    values[("table", "keep_photos_games")] = config.keep_photos_games
    values[("game", "start_seat")] = "ask" if config.game.start_seat is None else config.game.start_seat
    return [Field(section, key, values[(section, key)]) for section, key in EDITABLE]


def proposal(form: Mapping[str, str], current: Sequence[Field] = ()) -> str:
    """The TOML of the settings in ``form`` (``table.page_seconds`` -> ``[table] page_seconds``)
    that differ from the ``current`` ones shown, checked as the table will check them;
    ConfigError says what is wrong."""
    shown = {field.name: _toml_value(str(field.value)) for field in current}
    sections: dict[str, list[str]] = {}
    for section, key in EDITABLE:
        raw = (form.get(f"{section}.{key}") or "").strip()
        if not raw:
            continue
        value = _toml_value(raw)
        if value != shown.get(f"{section}.{key}"):
            sections.setdefault(section, []).append(f"{key} = {value}")
    text = "".join(f"[{section}]\n" + "".join(line + "\n" for line in lines) + "\n"
                   for section, lines in sections.items())
    with_page_settings(TableConfig(), text, source="the proposed settings")
    return "# proposed by the web page; the table applies it at the next game start\n" + text


def _toml_value(raw: str) -> str:
    """A form's text as a TOML value: a number as such (``5`` and ``5.0`` alike), else a
    string stripped of what could end it."""
    try:
        number = float(raw)
    except ValueError:
        return '"' + raw.replace("\\", "").replace('"', "") + '"'
    return repr(int(number)) if number.is_integer() else repr(number)


def write_proposal(requests: Path, text: str) -> None:
    """Replace ``requests/settings.toml`` whole (the table never reads half a file)."""
    requests.mkdir(parents=True, exist_ok=True)
    temporary = requests / "settings.toml.tmp"
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, requests / "settings.toml")


def log_lines(command: Sequence[str] | None = JOURNAL) -> list[str] | None:
    """The device's last log lines, or None when there is no journal to read here."""
    if not command or shutil.which(command[0]) is None:
        return None
    try:
        done = subprocess.run(list(command), capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return (done.stdout or done.stderr).splitlines()[-50:]
