"""What the setup page may propose to the table, and the device's log.

The page may propose the table's pacing (``[table]``) and the card stickers' scheme
(``[vision]``); the players, the variant, the language and the GPIO pins are set at the
table. A proposal is checked with the table's own validator
(:func:`coyote_pi.table.config.load_config_text`) and written atomically to
``requests/settings.toml``; the table checks it again, applies it when the next game
starts and deletes it, or says why not in the bulletin's ``settings-result.json``.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from coyote_pi.table.config import SCHEMES, ConfigError, Pacing, TableConfig, load_config, load_config_text

#: The settings the page offers: (section, key); everything else is set at the table.
EDITABLE: tuple[tuple[str, str], ...] = (
    *(("table", f.name) for f in dataclasses.fields(Pacing)),
    ("table", "keep_photos_games"),
    ("vision", "scheme"),
)
#: The log's last lines, when the system has a journal (the page's user reads it through
#: the systemd-journal group).
JOURNAL = ("journalctl", "-u", "coyote-pi", "-n", "50", "--no-pager", "-o", "short-iso")


@dataclass(frozen=True)
class Field:
    section: str
    key: str
    value: object
    choices: tuple[str, ...] = ()

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
    values[("vision", "scheme")] = config.scheme
    return [Field(section, key, values[(section, key)], SCHEMES if key == "scheme" else ()) for section, key in EDITABLE]


def proposal(form: Mapping[str, str]) -> str:
    """The TOML of the settings in ``form`` (``table.page_seconds`` -> ``[table] page_seconds``),
    checked as the table checks its configuration; ConfigError says what is wrong."""
    sections: dict[str, list[str]] = {}
    for section, key in EDITABLE:
        raw = (form.get(f"{section}.{key}") or "").strip()
        if not raw:
            continue
        if key == "scheme":
            value = '"' + raw.replace("\\", "").replace('"', "") + '"'
        else:
            try:
                value = repr(int(raw)) if raw.lstrip("-").isdigit() else repr(float(raw))
            except ValueError:
                raise ConfigError(f"[{section}] {key} must be a number, not {raw!r}") from None
        sections.setdefault(section, []).append(f"{key} = {value}")
    text = "".join(f"[{section}]\n" + "".join(line + "\n" for line in lines) + "\n"
                   for section, lines in sections.items())
    load_config_text(text, source="the proposed settings")
    return "# proposed by the web page; the table applies it at the next game start\n" + text


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
