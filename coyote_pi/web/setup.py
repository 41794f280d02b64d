"""What the setup page may propose to the table, and the device's log.

The page may propose exactly what the table takes from it
(:data:`coyote_pi.config.PAGE_SETTABLE`): the table's pacing and how many games
keep their photos (``[table]``), who starts the next game (``[game] start_seat``) and
which seats the table plays itself (``[game] virtual``: ``"3:strong,5:cautious"`` as in
the configuration file, ``"none"`` for no seat; docs/players.md).
The players, the variant, the language, the card stickers' scheme and the GPIO pins are
set at the table or in its configuration file.

The page shows the values the table has in force, as it publishes them in the bulletin's
``settings.json`` (a setting taken from the page stays taken over the table's restarts,
on top of its configuration file); before the table has published them, the values of
its configuration file. Only the settings a person changed from those are proposed,
checked with the validator the table itself applies to the page's settings
(:func:`coyote_pi.config.with_page_settings`) and written atomically to
``requests/settings.toml``; the table checks them again, applies them when the next game
starts and deletes the file, or says why not in the bulletin's ``settings-result.json``.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from coyote_pi.config import (
    PAGE_SETTABLE,
    ConfigError,
    TableConfig,
    load_config,
    page_settings_text,
    page_values,
    range_words,
    with_page_settings,
)
from coyote_pi.contract import page as page_contract
from coyote_pi.contract.page import SETTINGS, SETTINGS_IN_FORCE
from coyote_pi.files import write_atomically
from coyote_pi.players import level_words
from coyote_pi.web.bulletin import read_json

#: The settings the page offers, (section, key): the ones the table takes from it.
EDITABLE: tuple[tuple[str, str], ...] = tuple((section, key) for section, keys in PAGE_SETTABLE.items() for key in keys)
#: The log's last lines, when the system has a journal (the page's user reads it through
#: the systemd-journal group).
JOURNAL = ("journalctl", "-u", page_contract.TABLE_UNIT, "-n", "50", "--no-pager", "-o", "short-iso")
#: The settings whose form text is proposed as text, never as a number (``3`` names seat 3
#: strong, which the table's check wants written as text).
TEXT_FIELDS = frozenset({"game.virtual"})
#: The longest text value the page shows of those the table published (six virtual seats
#: with the longest level names fit).
PUBLISHED_TEXT_LIMIT = 100


def field_names() -> list[str]:
    """The form's names of the editable settings: ``table.page_seconds``, ..."""
    return [f"{section}.{key}" for section, key in EDITABLE]


def typed_settings(fields: Mapping[str, str]) -> dict[str, str]:
    """The editable settings given a value in ``fields`` (a form or a query), by name:
    what is carried through the PIN page when a session ended under the setup form."""
    return {name: fields[name] for name in field_names() if fields.get(name)}


@dataclass(frozen=True)
class Field:
    section: str
    key: str
    value: object
    #: The configuration's value when the table has another one in force, taken from the
    #: page (None: the value is the configuration's).
    configured: object = None

    @property
    def name(self) -> str:
        return f"{self.section}.{self.key}"

    @property
    def words(self) -> str:
        """The catalog key of the field's label; ``<words>.help`` explains it, with its unit
        and its range (:attr:`bounds`)."""
        return f"setting.{self.key}"

    @property
    def bounds(self) -> dict[str, str]:
        """The help text's ``low`` and ``high``: the range the table checks the value against
        (for the virtual seats, the ``levels`` and ``baselines`` there are)."""
        if self.key == "virtual":
            return level_words()
        return range_words(self.key) if self.section == "table" else {}


def current_fields(bulletin: Path, config_file: Path | None) -> list[Field]:
    """The editable settings with the values the table has in force (the bulletin's
    ``settings.json``); when it has published none the page can use, those of its
    configuration file (read only; the defaults when there is none or it cannot be read)."""
    published = read_json(bulletin / SETTINGS_IN_FORCE) or {}
    in_force = _checked(published.get("settings")) if published.get("version") == 1 else None
    if in_force is None:
        in_force, configured = page_values(_configuration(config_file)), None
    else:
        configured = _checked(published.get("configured"))
    fields = []
    for section, key in EDITABLE:
        value, beneath = in_force[section][key], None if configured is None else configured[section][key]
        fields.append(Field(section, key, value, None if beneath == value else beneath))
    return fields


def _configuration(config_file: Path | None) -> TableConfig:
    try:
        return load_config(config_file) if config_file and Path(config_file).is_file() else TableConfig()
    except ConfigError:
        return TableConfig()


def _checked(values: object) -> dict[str, dict[str, object]] | None:
    """Page-settable values the table published (untrusted): every key of
    :data:`PAGE_SETTABLE` and no other, each a number or a short text; else None. (Their
    ranges are the table's business: it took them; the page only shows them.)"""
    if not isinstance(values, dict) or values.keys() != PAGE_SETTABLE.keys():
        return None
    for section, keys in PAGE_SETTABLE.items():
        given = values[section]
        if not isinstance(given, dict) or given.keys() != set(keys) or not all(
                (isinstance(value, (int, float)) and not isinstance(value, bool))
                or (isinstance(value, str) and len(value) <= PUBLISHED_TEXT_LIMIT) for value in given.values()):
            return None
    return values


def proposal(form: Mapping[str, str], current: Sequence[Field] = ()) -> str | None:
    """The TOML of the settings in ``form`` (``table.page_seconds`` -> ``[table] page_seconds``)
    that differ from the ``current`` ones shown, checked as the table will check them;
    ConfigError says what is wrong. None when nothing differs (an empty field keeps its
    value): there is nothing to propose."""
    shown = {field.name: _form_value(field.name, str(field.value)) for field in current}
    changed: dict[str, dict[str, object]] = {}
    for section, key in EDITABLE:
        raw = (form.get(f"{section}.{key}") or "").strip()
        if raw and (value := _form_value(f"{section}.{key}", raw)) != shown.get(f"{section}.{key}"):
            changed.setdefault(section, {})[key] = value
    if not changed:
        return None
    text = page_settings_text(changed)
    with_page_settings(TableConfig(), text, source="the proposed settings")
    return "# proposed by the web page; the table applies it at the next game start\n" + text


def _form_value(name: str, raw: str) -> int | float | str:
    """A form's text for the setting ``name`` as the value it stands for: a number written
    in plain decimal as such (``5`` and ``5.0`` alike), else (and always for
    :data:`TEXT_FIELDS`) the text, which the table's check refuses by name (Python's own
    float() would also take ``nan``, ``1_0`` and full-width digits)."""
    if name in TEXT_FIELDS or not _DECIMAL.fullmatch(raw):
        return raw
    number = float(raw)
    if not math.isfinite(number):  # more digits than a float holds
        return raw
    return int(number) if number.is_integer() and abs(number) < 2 ** 53 else number


_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


def write_proposal(requests: Path, text: str) -> None:
    """Replace ``requests/settings.toml`` whole (the table never reads half a file)."""
    requests.mkdir(parents=True, exist_ok=True)
    write_atomically(requests / SETTINGS, text.encode("utf-8"))


def pending_values(requests: Path) -> dict[str, object]:
    """The settings of the proposal still waiting in ``requests/settings.toml``, by form
    name (``game.start_seat`` -> 2); empty when none waits or it cannot be read (the table
    says why in the bulletin when it tries)."""
    try:
        data = tomllib.loads((requests / SETTINGS).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    return {f"{section}.{key}": data[section][key] for section, key in EDITABLE
            if isinstance(data.get(section), dict) and key in data[section]}


def withdraw_proposal(requests: Path) -> bool:
    """Take back the proposal waiting for the table, if one still waits (the table may have
    taken it a moment ago): True when one was withdrawn."""
    try:
        (requests / SETTINGS).unlink()
    except FileNotFoundError:
        return False
    return True


def log_lines(command: Sequence[str] | None = JOURNAL) -> list[str] | None:
    """The device's last log lines, or None when there is no journal to read here."""
    if not command or shutil.which(command[0]) is None:
        return None
    try:
        done = subprocess.run(list(command), capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return (done.stdout or done.stderr).splitlines()[-50:]
