"""The settings the table took from its web page: kept over restarts, published for the page.

The page proposes settings (``requests/settings.toml``, read by
:mod:`~coyote_pi.table.web_requests`). Those the table takes it keeps in a small TOML
file of its own, ``[web] page_settings`` (by default ``page-settings.toml`` beside the
record folder: ``/var/lib/coyote-pi/page-settings.toml`` on the Pi, which the page's
user cannot write). The file is in the format the page proposes in and holds only the
settings that differ from the configuration the table started with (its file, then its
flags); it is replaced whole and flushed to the card before it counts, and deleted when
the page sets every value back to the configuration's.

When the table starts the file goes on top of its configuration through the validator
the page's proposals pass (:func:`~coyote_pi.config.with_page_settings`): the
configuration file, then the page's settings. A file that cannot be read or is refused
is said in the journal and on the setup page (the bulletin's ``settings-result.json``)
and renamed aside to ``page-settings.toml.bad``: the table starts with its
configuration alone, and the host can still look at what was set.

The page-settable values in force (:func:`~coyote_pi.config.page_values`), and
those of the configuration beneath them, are published in the bulletin as
``settings.json`` when the table starts and whenever they change; they hold no card::

    {"version": 1, "time": "2026-11-23T19:02:11.407Z",
     "settings":   {"game": {"start_seat": "ask"}, "table": {"camera_interval": 0.7, ..., "page_seconds": 6}},
     "configured": {"game": {"start_seat": "ask"}, "table": {"camera_interval": 0.7, ..., "page_seconds": 4.0}}}
"""

from __future__ import annotations

import json
import logging
import os
from typing import TYPE_CHECKING

from coyote_pi.config import ConfigError, TableConfig, page_settings_text, page_values, with_page_settings
from coyote_pi.contract.page import SETTINGS_IN_FORCE
from coyote_pi.files import write_atomically
from coyote_pi.table.bulletin import Bulletin, iso_time

if TYPE_CHECKING:
    from coyote_pi.table.web_table import WebTable

log = logging.getLogger(__name__)

VERSION = 1
#: What a refused file of kept settings is renamed to (its name plus this).
BAD = ".bad"


class PageSettings:
    """The settings the ``table`` took from its page (see the module docstring);
    ``bulletin`` is where they are published."""

    def __init__(self, table: WebTable, bulletin: Bulletin) -> None:
        self.table = table
        self.bulletin = bulletin
        self.path = table.config.page_settings_file()
        #: The configuration the table started with, beneath the page's settings.
        self.configured: TableConfig = table.config

    def restore(self) -> str | None:
        """At the table's start: play with the kept settings on top of the configuration,
        and publish what is in force. Returns why the kept file was refused (None: it was
        taken, or there is none)."""
        config, problem = self._kept()
        differences = self._differences(config)
        if problem is not None:
            problem = f"the settings kept from the web page are not used: {problem}; {self._set_aside()}"
            log.error("%s", problem)
        elif any(differences.values()):
            log.info("the settings taken from the web page (%s) go on top of %s: %s", self.path,
                     self.configured.source, " ".join(page_settings_text(differences).split()))
            self.table.use_config(config)
        self._publish()
        return problem

    def take(self, config: TableConfig) -> str | None:
        """Play the next game with ``config`` (a proposal of the page, checked), publish it
        and keep it. Returns why it could not be kept over a restart (None: it is kept)."""
        self.table.use_config(config)
        self._publish()
        kept = self._differences(config)
        try:
            if any(kept.values()):
                header = (f"# The settings the table took from its web page, on top of {self.configured.source}.\n"
                          "# Written by the table; delete this file (then restart the table) to undo them.\n")
                write_atomically(self.path, (header + page_settings_text(kept)).encode(), durable=True)
            else:  # every value as configured again: nothing to keep
                self.path.unlink(missing_ok=True)
        except OSError as error:
            problem = f"taken for now, but not kept over a restart: cannot write {self.path} ({error.strerror or error})"
            log.error("the web page's settings are %s", problem)
            return problem
        return None

    # -- helpers

    def _kept(self) -> tuple[TableConfig, str | None]:
        """The configuration with the kept settings on top, or as it is and why not."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return self.configured, None
        except (OSError, UnicodeDecodeError) as error:
            return self.configured, f"{self.path}: cannot read it ({getattr(error, 'strerror', None) or error})"
        try:
            return with_page_settings(self.configured, text, source=str(self.path)), None
        except ConfigError as error:
            return self.configured, str(error)

    def _set_aside(self) -> str:
        """Rename the refused file aside (the next setting taken would replace it); say where it is."""
        bad = self.path.with_name(self.path.name + BAD)
        try:
            os.replace(self.path, bad)
        except OSError as error:
            return f"it stays as it is ({error.strerror or error})"
        return f"it is kept as {bad}"

    def _differences(self, config: TableConfig) -> dict[str, dict[str, object]]:
        """The page-settable values of ``config`` that are not as configured, section by key."""
        configured = page_values(self.configured)
        return {section: {key: value for key, value in values.items() if value != configured[section][key]}
                for section, values in page_values(config).items()}

    def _publish(self) -> None:
        document = {"version": VERSION, "time": iso_time(), "settings": page_values(self.table.config),
                    "configured": page_values(self.configured)}
        self.bulletin.write(SETTINGS_IN_FORCE, json.dumps(document).encode())
