"""Install coyote-pi on Raspberry Pi OS (Bookworm or Trixie), or remove it again.

Run from an unpacked release (``make release``; a clone of the repository works too), as
root, with the system python3 (``make`` is only a shortcut: ``sudo make install``)::

    sudo python3 -m coyote_pi.commands.install                  # or: sudo make install
    sudo python3 -m coyote_pi.commands.install --uninstall      # or: sudo make uninstall
    python3 -m coyote_pi.commands.install --dry-run             # print every step, change nothing

Run again from a newer release, it updates: it replaces what the release changed and
keeps the configuration the host edited, the game records and the state under /var/lib
(docs/raspberry-pi.md, "Updating to a newer release").

(the command line is :mod:`coyote_pi.commands.install`; this module holds the steps
and never imports it).

This module uses the standard library only: it runs with the system's ``python3``
before the virtual environment that holds the rest of the project exists.

First it reads /etc/os-release: the release decides which pip constraints match its apt
camera stack (:data:`RELEASES`), and a release it does not know is refused before any
change. Then, each step only when it is still needed (so a second run changes nothing
and says so):

1. apt packages: python3-picamera2 (the camera; only Raspberry Pi's build matches
   libcamera), python3-lgpio (gpiozero's GPIO backend), python3-venv, libzbar0 (QR
   stickers), i2c-tools (``i2cdetect`` for wiring checks), espeak-ng and alsa-utils (the
   table's voice, ``[speech]``: the voice and ``aplay``). No fonts: the OLED's DejaVu
   fonts ship inside the package.
2. The groups gpio, i2c, video and audio (Raspberry Pi OS has them) and a system user
   ``coyote`` in them, without a login shell; the web page's own system user
   ``coyote-web`` in the group ``coyote`` (it reads the game records and the bulletin,
   never ``private/``), and ``coyote`` in the group ``coyote-web`` (it reads and deletes
   the page's requests); the hotspot's system user ``coyote-hotspot``, with the polkit
   rule that lets it (and nothing else of coyote-pi) ask NetworkManager for a hotspot.
   docs/web.md says which folder is whose.
3. A virtual environment at /opt/coyote-pi/venv made with ``--system-site-packages``,
   so the apt picamera2 and lgpio are importable, and the project pip-installed into it
   under the release's constraints (``constraints/bookworm.txt``: numpy 1.24, the ABI
   Bookworm's picamera2 is built for; ``constraints/trixie.txt``: numpy 2.2).
4. ``/usr/local/bin/coyote-pi``, a link to the venv's command, and
   /etc/coyote-pi/config.toml from the annotated example
   (``coyote_pi/data/coyote-pi.example.toml``, whose defaults are the Pi's). A file the
   host has edited is never overwritten.
5. /etc/modules-load.d/coyote-pi.conf, which loads ``i2c-dev`` so /dev/i2c-1 exists.
6. ``firmware/config.txt`` merged into /boot/firmware/config.txt between marker
   comments, after a backup of the file beside it (``config.txt.coyote-pi.bak``, the
   file as it was before the installer's latest change to it). Every file is written
   to a temporary file, flushed to the card and renamed over the old one, so a power
   cut leaves the old config.txt or the new one, never half of one.
7. The units of systemd/ in /etc/systemd/system, enabled: coyote-pi.service (the table),
   coyote-pi-web.service (its web page) and coyote-pi-hotspot.service (the device's own
   Wi-Fi when no known one is in reach); the table and the page are restarted when
   something they run changed, unless the firmware settings changed (reboot then).

What was added is written down in /opt/coyote-pi/install-record.json, and
``--uninstall`` removes exactly that: the packages and groups the installer installed or
created, the user it created (or the groups it gave an existing user), the files and the
config.txt block. It keeps the configuration if the host edited it and the game records
in /var/lib/coyote-pi; ``--purge`` removes those too. Backups of config.txt stay.

Every path goes through ``--root`` (default ``/``), so the tests install into a throwaway
directory. Commands that change the running system (apt-get, groupadd, useradd, usermod,
systemctl, venv, pip) go through an injectable runner; with a ``--root`` other than ``/``
they are printed, not run.

This module is longer than the project's 600-line guide on purpose: it is one thing, the
installer, each step written beside its undoing (what install adds, uninstall removes
exactly), and it must run from the bare system python3. The command line that drives
it is :mod:`coyote_pi.commands.install`.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from coyote_pi import files  # both import nothing: the installer runs on the bare system python3
from coyote_pi.contract.page import TABLE_UNIT
from coyote_pi.json_text import JsonObject  # the standard library's json only

#: The repository this module was run from: the installer copies files out of it.
REPO = Path(__file__).resolve().parents[2]

APT_PACKAGES = ("python3-picamera2", "python3-lgpio", "python3-venv", "libzbar0", "i2c-tools", "espeak-ng", "alsa-utils")
#: The apt packages only Raspberry Pi's own archive has (Debian's has no picamera2; lgpio
#: only from Trixie on): another system's apt cannot find them.
RASPBERRY_PI_ARCHIVE = ("python3-picamera2", "python3-lgpio")
#: Where the board names itself; a Raspberry Pi's name starts "Raspberry Pi".
BOARD_MODEL = "/proc/device-tree/model"
USER = "coyote"
GROUPS = ("gpio", "i2c", "video", "audio")
#: The web page's own user: in the group USER, which reads the records (never private/).
WEB_USER = "coyote-web"
WEB_HOME = "/var/lib/coyote-pi-web"
#: The hotspot's user: NetworkManager lets it open a hotspot through :data:`POLKIT_RULE`.
HOTSPOT_USER = "coyote-hotspot"
HOTSPOT_HOME = "/var/lib/coyote-pi-hotspot"
#: polkitd reads the rules in this folder again whenever one changes.
POLKIT_RULE = "/etc/polkit-1/rules.d/50-coyote-pi-hotspot.rules"
#: What the page's and the hotspot's units keep (systemd makes them): the page's pending
#: requests and the reviews it made, the hotspot's key. Removed on uninstall; nothing in
#: them is a game's.
SERVICE_STATE_DIRS = (WEB_HOME, HOTSPOT_HOME)
#: The interpreter whose dist-packages hold the apt picamera2; the venv is made from it.
SYSTEM_PYTHON = "/usr/bin/python3"

PREFIX = "/opt/coyote-pi"
VENV = PREFIX + "/venv"
RECORD = PREFIX + "/install-record.json"
#: Fingerprint of the source last pip-installed; inside the venv, so a new venv has none.
SOURCE_STAMP = VENV + "/coyote-pi-source.sha256"
#: ``coyote-pi`` on every user's PATH (doctor, markers, replay), pointing into the venv.
COMMAND_LINK = "/usr/local/bin/coyote-pi"
CONFIG = "/etc/coyote-pi/config.toml"
STATE_DIR = "/var/lib/coyote-pi"
MODULES_FILE = "/etc/modules-load.d/coyote-pi.conf"
MODULES_TEXT = "# coyote-pi: /dev/i2c-1 for the OLED (written by coyote-pi install)\ni2c-dev\n"
UNIT_NAME = TABLE_UNIT
UNIT_DIR = "/etc/systemd/system/"
UNIT = UNIT_DIR + UNIT_NAME
WANTS_DIR = UNIT_DIR + "multi-user.target.wants/"
WANTS_LINK = WANTS_DIR + UNIT_NAME
WEB_UNIT_NAME = "coyote-pi-web.service"
HOTSPOT_UNIT_NAME = "coyote-pi-hotspot.service"
#: The units installed and enabled, the table's first; the first two are restarted on a change.
UNIT_NAMES = (UNIT_NAME, WEB_UNIT_NAME, HOTSPOT_UNIT_NAME)
RESTARTED_UNITS = (UNIT_NAME, WEB_UNIT_NAME)
#: Bookworm's boot partition first; older images keep config.txt in /boot.
BOOT_CONFIGS = ("/boot/firmware/config.txt", "/boot/config.txt")
BACKUP_SUFFIX = ".coyote-pi.bak"
BEGIN_MARK = "# >>> coyote-pi >>> (added by `make install`; `make uninstall` removes this block)"
END_MARK = "# <<< coyote-pi <<<"

FIRMWARE_FRAGMENT = REPO / "firmware" / "config.txt"
UNIT_SOURCE = REPO / "systemd" / UNIT_NAME
UNIT_SOURCES = REPO / "systemd"
#: One pip constraints file per supported release, named after it (``bookworm.txt``).
CONSTRAINTS_DIR = REPO / "coyote_pi" / "pi" / "constraints"
#: The configuration written to /etc/coyote-pi/config.toml: the one template, whose defaults are the Pi's.
CONFIG_TEMPLATE = REPO / "coyote_pi" / "data" / "coyote-pi.example.toml"
POLKIT_RULE_SOURCE = REPO / "coyote_pi" / "data" / "coyote-pi-hotspot.rules"
#: What pip installs from the repository (the constraints and the configuration template
#: are inside ``coyote_pi``); its fingerprint decides whether pip runs again.
SOURCE_PARTS = ("pyproject.toml", "README.md", "coyote_pi")

#: The Raspberry Pi OS releases the installer supports, by ``VERSION_CODENAME`` in
#: /etc/os-release. Each ships its own numpy, Pillow and picamera2 (built against that
#: numpy), so each has its own constraints file in :data:`CONSTRAINTS_DIR`.
RELEASES = {"bookworm": "Bookworm (Debian 12)", "trixie": "Trixie (Debian 13)"}
#: Where os-release(5) says to look, in order.
OS_RELEASE_FILES = ("/etc/os-release", "/usr/lib/os-release")

#: Runs one system command; raises :class:`InstallError` when it fails.
Runner = Callable[[Sequence[str]], None]


class InstallError(Exception):
    """A step could not be done; the message says which and what to do."""


class UnsupportedRelease(InstallError):
    """The system is not a release in :data:`RELEASES`; nothing was changed."""


def run_command(argv: Sequence[str]) -> None:
    """The real runner: run ``argv`` with its output on the terminal, apt without questions."""
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    try:
        result = subprocess.run(list(argv), env=env, check=False)
    except OSError as err:
        raise InstallError(f"cannot run `{shlex.join(argv)}`: {err.strerror or err}") from None
    if result.returncode != 0:
        raise InstallError(f"`{shlex.join(argv)}` failed with exit status {result.returncode}")


def print_command(argv: Sequence[str]) -> None:
    """The runner used with ``--root``: the running system is not the one being installed."""
    print(f"      (not run outside the real root) $ {shlex.join(argv)}")


@dataclass(frozen=True)
class Step:
    """One change: a summary, the commands or file changes it makes (as printed), and the doing."""

    summary: str
    details: tuple[str, ...]
    apply: Callable[[], None]


@dataclass
class Report:
    """What a run did (or, in a dry run, would do)."""

    steps: list[Step] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class Installer:
    """Plans and makes the install (or uninstall) steps under ``root``.

    Each step is decided just before it runs, from the files under ``root``, so a run that
    stopped half-way picks up where it stopped, and a complete install plans no step.
    """

    def __init__(
        self,
        root: Path | str = "/",
        runner: Runner = run_command,
        *,
        dry_run: bool = False,
        skip_apt: bool = False,
        skip_packages: Sequence[str] = (),
        purge: bool = False,
        out: Callable[[str], None] = print,
    ) -> None:
        self.root = Path(root)
        self.runner = runner
        self.dry_run = dry_run
        self.skip_apt = skip_apt
        self.skip_packages = tuple(skip_packages)
        self.purge = purge
        self.out = out
        self.record = self._load_record()
        self.report = Report()
        self._restart_wanted = False
        self._reboot_wanted = False

    # -- the two plans ---------------------------------------------------------------

    def install(self) -> Report:
        """Bring the system to the installed state; return what was done.

        Raises :class:`UnsupportedRelease`, before any step, on a release not in :data:`RELEASES`.
        """
        self.constraints = constraints_for(supported_release(self.root))
        if not self.skip_apt and pi_model(self.root) is None:
            self.out(
                f"Not a Raspberry Pi (no Raspberry Pi in {BOARD_MODEL}): {' and '.join(RASPBERRY_PI_ARCHIVE)} "
                "come from Raspberry Pi's archive, which this system's apt may lack; "
                "coyote-pi is installed on Raspberry Pi OS (docs/raspberry-pi.md)."
            )
        for task in (
            self._apt_install,
            self._groups,
            self._user,
            self._web_user,
            self._user_in_web_group,
            self._hotspot_user,
            self._polkit_rule,
            self._venv,
            self._pip,
            self._command_link,
            self._config,
            self._modules_file,
            self._boot_config,
            self._units,
            self._enable,
            self._restart,
        ):
            self._do(task())
        if self._reboot_wanted:
            self.report.notes.append("Reboot to apply the firmware settings and start the service: sudo reboot")
        return self.report

    def uninstall(self) -> Report:
        """Remove what :meth:`install` added (see the module docstring); return what was done."""
        for task in (
            self._disable,
            self._remove_units,
            self._remove_boot_block,
            self._remove_modules_file,
            self._remove_config,
            self._remove_state_dir,
            self._remove_service_state,
            self._remove_command_link,
            self._remove_user,
            self._remove_web_user,
            self._remove_hotspot_user,
            self._remove_polkit_rule,
            self._remove_groups,
            self._apt_remove,
            self._remove_prefix,
        ):
            self._do(task())
        if self._reboot_wanted:
            self.report.notes.append("The firmware settings go at the next boot: sudo reboot")
        return self.report

    def _do(self, step: Step | None) -> None:
        if step is None:
            return
        self.report.steps.append(step)
        self.out(f"- {step.summary}")
        for line in step.details:
            self.out(f"      {line}")
        if not self.dry_run:
            step.apply()

    # -- install tasks: each returns the step still needed, or None ---------------------

    def _apt_install(self) -> Step | None:
        if self.skip_apt:
            return None
        installed = self._installed_packages()
        missing = [name for name in APT_PACKAGES if name not in installed and name not in self.skip_packages]
        left_out = [name for name in self.skip_packages if name in APT_PACKAGES and name not in installed]
        if left_out:
            self.report.notes.append(f"Not installed (--skip-apt-package): {', '.join(left_out)}; what needs it "
                                     "cannot work here (docs/raspberry-pi.md says what needs what).")
        if not missing:
            return None
        commands = [["apt-get", "update"], ["apt-get", "install", "-y", "--no-install-recommends", *missing]]

        def apply() -> None:
            self._run_all(commands)
            self._remember("apt_packages", missing)

        return Step(f"install apt packages: {' '.join(missing)}", _shown(*commands), apply)

    def _groups(self) -> Step | None:
        existing = self._group_members()
        missing = [group for group in GROUPS if group not in existing]
        if not missing:
            return None
        commands = [["groupadd", "--system", group] for group in missing]

        def apply() -> None:
            self._run_all(commands)
            self._remember("groups_created", missing)

        return Step(f"create the groups {', '.join(missing)} (Raspberry Pi OS has them)", _shown(*commands), apply)

    def _user(self) -> Step | None:
        if USER not in self._users():
            command = [
                "useradd", "--system", "--user-group", "--home-dir", STATE_DIR, "--no-create-home",
                "--shell", "/usr/sbin/nologin", "--groups", ",".join(GROUPS), USER,
            ]  # fmt: skip

            def create() -> None:
                self.runner(command)
                self._remember("user_created", True)

            return Step(f"create the system user {USER} in the groups {', '.join(GROUPS)}", _shown(command), create)
        members = self._group_members()
        lacking = [group for group in GROUPS if USER not in members.get(group, ())]
        if not lacking:
            return None
        command = ["usermod", "--append", "--groups", ",".join(lacking), USER]

        def add_groups() -> None:
            self.runner(command)
            self._remember("groups_added", lacking)

        return Step(f"add the user {USER} to the groups {', '.join(lacking)}", _shown(command), add_groups)

    def _web_user(self) -> Step | None:
        return self._service_user(WEB_USER, WEB_HOME, "web_user_created", "the web page's", groups=(USER,))

    def _hotspot_user(self) -> Step | None:
        return self._service_user(HOTSPOT_USER, HOTSPOT_HOME, "hotspot_user_created", "the hotspot's")

    def _service_user(self, name: str, home: str, record_key: str, whose: str, groups: Sequence[str] = ()) -> Step | None:
        """The step that creates a service's own system user (no login, no home made), if it is missing."""
        if name in self._users():
            return None
        in_groups = ["--groups", ",".join(groups)] if groups else []
        command = ["useradd", "--system", "--user-group", "--home-dir", home, "--no-create-home",
                   "--shell", "/usr/sbin/nologin", *in_groups, name]  # fmt: skip

        def create() -> None:
            self.runner(command)
            self._remember(record_key, True)

        where = f" in the group {', '.join(groups)}" if groups else ""
        return Step(f"create {whose} system user {name}{where}", _shown(command), create)

    def _polkit_rule(self) -> Step | None:
        target = self._path(POLKIT_RULE)
        text = POLKIT_RULE_SOURCE.read_text(encoding="utf-8")
        if target.is_file() and target.read_text(encoding="utf-8") == text:
            return None
        return Step(f"let {HOTSPOT_USER} open the Wi-Fi hotspot through NetworkManager (polkit)",
                    (f"write {POLKIT_RULE} from {POLKIT_RULE_SOURCE.relative_to(REPO)}",),
                    lambda: _write(target, text))

    def _user_in_web_group(self) -> Step | None:
        # The group comes with the web user, made by the step before (in a dry run, planned):
        # so a dry run names this step too, as the real run will take it.
        if USER in self._group_members().get(WEB_USER, ()):
            return None
        command = ["usermod", "--append", "--groups", WEB_USER, USER]

        def add() -> None:
            self.runner(command)
            self._remember("groups_added", [WEB_USER])

        return Step(f"add the user {USER} to the group {WEB_USER} (the page's requests)", _shown(command), add)

    def _venv(self) -> Step | None:
        cfg = self._path(VENV) / "pyvenv.cfg"
        if cfg.is_file() and "include-system-site-packages = true" in cfg.read_text(encoding="utf-8"):
            return None
        command = [SYSTEM_PYTHON, "-m", "venv", "--clear", "--system-site-packages", VENV]

        def apply() -> None:
            self.runner(command)
            self._restart_wanted = True

        why = "" if not cfg.exists() else " (the old one could not see the apt packages)"
        return Step(f"create the virtual environment {VENV} with the system packages{why}", _shown(command), apply)

    def _pip(self) -> Step | None:
        fingerprint = source_fingerprint(REPO)
        stamp = self._path(SOURCE_STAMP)
        if stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == fingerprint:
            return None

        def pip_command(source: str) -> list[str]:
            return [VENV + "/bin/python", "-m", "pip", "install", "--constraint", str(self.constraints), source]

        def apply() -> None:
            # pip builds in the source tree; a copy keeps root-owned build files out of the clone.
            with tempfile.TemporaryDirectory(prefix="coyote-pi-source-") as copy:
                copy_source(REPO, Path(copy))
                self.runner(pip_command(copy))
            _write(stamp, fingerprint + "\n")
            self._restart_wanted = True

        return Step(
            f"install coyote-pi from {REPO} into the virtual environment",
            (*_shown(pip_command(f"<copy of {REPO}>")), f"write {SOURCE_STAMP}"),
            apply,
        )

    def _command_link(self) -> Step | None:
        link = self._path(COMMAND_LINK)
        target = VENV + "/bin/coyote-pi"
        if link.is_symlink() and str(link.readlink()) == target:
            return None
        if link.exists() or link.is_symlink():
            self.report.notes.append(f"Left {COMMAND_LINK} alone (not the installer's): use {target}.")
            return None

        def apply() -> None:
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(target)

        return Step("put the coyote-pi command on the PATH", (f"link {COMMAND_LINK} -> {target}",), apply)

    def _config(self) -> Step | None:
        target = self._path(CONFIG)
        template = CONFIG_TEMPLATE.read_text(encoding="utf-8")
        if target.exists():
            untouched = _sha256(target.read_bytes()) == self.record.get("config_sha256")
            if not untouched or target.read_text(encoding="utf-8") == template:
                return None  # the host's own configuration, or already the current default
            summary = f"update {CONFIG} to the new default configuration (it was never edited)"
        else:
            summary = f"write the default configuration {CONFIG}"

        def apply() -> None:
            _write(target, template)
            self._remember("config_sha256", _sha256(template.encode("utf-8")))
            self._restart_wanted = True

        return Step(summary, (f"write {CONFIG} from {CONFIG_TEMPLATE.relative_to(REPO)}",), apply)

    def _modules_file(self) -> Step | None:
        target = self._path(MODULES_FILE)
        if target.is_file() and target.read_text(encoding="utf-8") == MODULES_TEXT:
            return None
        return Step(
            "load i2c-dev at boot (makes /dev/i2c-1)", (f"write {MODULES_FILE}",), lambda: _write(target, MODULES_TEXT)
        )

    def _boot_config(self) -> Step | None:
        if self._boot_config_path() is None:
            self.report.notes.append(
                f"No {' or '.join(BOOT_CONFIGS)} here (not a Raspberry Pi OS system): firmware settings skipped."
            )
            return None
        fragment = FIRMWARE_FRAGMENT.read_text(encoding="utf-8")
        return self._edit_boot_config(
            lambda text: merge_block(text, fragment),
            "add the coyote-pi firmware settings to {}",
            f"write the block from {FIRMWARE_FRAGMENT.relative_to(REPO)}",
        )

    def _edit_boot_config(self, edit: Callable[[str], str], summary: str, detail: str) -> Step | None:
        """The step that backs config.txt up and rewrites it with ``edit``, if that changes it."""
        boot = self._boot_config_path()
        if boot is None:
            return None
        current = boot.read_text(encoding="utf-8")
        wanted = edit(current)
        if wanted == current:
            return None
        shown_path = "/" + str(boot.relative_to(self.root))

        def apply() -> None:
            _write(boot.with_name(boot.name + BACKUP_SUFFIX), current)
            _write(boot, wanted)
            self._reboot_wanted = True

        return Step(summary.format(shown_path), (f"back up to {shown_path}{BACKUP_SUFFIX}", detail), apply)

    def _shipped_units(self) -> list[str]:
        """The units of :data:`UNIT_NAMES` this checkout has (a note names one it lacks)."""
        shipped = [name for name in UNIT_NAMES if (UNIT_SOURCES / name).is_file()]
        for name in UNIT_NAMES:
            note = f"systemd/{name} is not in this checkout: it is not installed."
            if name not in shipped and note not in self.report.notes:
                self.report.notes.append(note)
        return shipped

    def _units(self) -> Step | None:
        changed = {}
        for name in self._shipped_units():
            text = (UNIT_SOURCES / name).read_text(encoding="utf-8")
            target = self._path(UNIT_DIR + name)
            if not (target.is_file() and target.read_text(encoding="utf-8") == text):
                changed[name] = text
        if not changed:
            return None
        reload = [["systemctl", "daemon-reload"]] if self._systemd_running() else []

        def apply() -> None:
            for name, text in changed.items():
                _write(self._path(UNIT_DIR + name), text)
            self._run_all(reload)
            self._restart_wanted = True

        names = ", ".join(changed)
        return Step(f"install the service units {names}" if len(changed) > 1 else f"install the service unit {names}",
                    (*(f"write {UNIT_DIR}{name}" for name in changed), *_shown(*reload)), apply)

    def _enable(self) -> Step | None:
        names = [name for name in self._shipped_units() if not self._path(WANTS_DIR + name).is_symlink()]
        if not names:
            return None
        command = ["systemctl", "enable", *names]
        return Step("start the services on every boot", _shown(command), lambda: self.runner(command))

    def _restart(self) -> Step | None:
        # Decided after the other steps ran: a dry run cannot know, and says nothing.
        if not self._restart_wanted or self._reboot_wanted or not self._systemd_running():
            return None
        command = ["systemctl", "restart", *(name for name in RESTARTED_UNITS if self._path(UNIT_DIR + name).is_file())]

        def restart() -> None:
            # A table that cannot start (no camera plugged in yet, no GPIO: make test-boot's
            # machine) fails the restart. That is the device's matter, not an install left
            # half done: every step is done, and running the installer again changes nothing.
            try:
                self.runner(command)
            except InstallError as error:
                self.report.notes.append(f"The services did not all start ({error}): `coyote-pi doctor` says what "
                                         "the table is missing, `systemctl status coyote-pi` why it stopped.")

        return Step("restart the services with what changed", _shown(command), restart)

    # -- uninstall tasks ------------------------------------------------------------

    def _installed_units(self) -> list[str]:
        return [name for name in UNIT_NAMES
                if self._path(WANTS_DIR + name).is_symlink() or self._path(UNIT_DIR + name).exists()]

    def _disable(self) -> Step | None:
        names = self._installed_units()
        if not names:
            return None
        command = ["systemctl", "disable", *names]
        if self._systemd_running():
            command.insert(2, "--now")
        return Step("stop the services and stop starting them at boot", _shown(command), lambda: self.runner(command))

    def _remove_units(self) -> Step | None:
        targets = [self._path(UNIT_DIR + name) for name in UNIT_NAMES if self._path(UNIT_DIR + name).exists()]
        if not targets:
            return None
        reload = [["systemctl", "daemon-reload"]] if self._systemd_running() else []

        def apply() -> None:
            for target in targets:
                target.unlink()
            self._run_all(reload)

        shown = [f"delete {UNIT_DIR}{target.name}" for target in targets]
        return Step(f"remove the service units {', '.join(t.name for t in targets)}", (*shown, *_shown(*reload)), apply)

    def _remove_boot_block(self) -> Step | None:
        return self._edit_boot_config(
            remove_block,
            "remove the coyote-pi firmware settings from {}",
            "delete the lines between the coyote-pi markers",
        )

    def _remove_modules_file(self) -> Step | None:
        return self._delete_file(MODULES_FILE, "stop loading i2c-dev for coyote-pi")

    def _remove_config(self) -> Step | None:
        target = self._path(CONFIG)
        if not target.exists():
            return self._remove_empty_dir(str(Path(CONFIG).parent))
        if not self.purge and _sha256(target.read_bytes()) != self.record.get("config_sha256"):
            self.report.notes.append(f"Kept {CONFIG}: it is not the installer's default (--purge removes it).")
            return None

        def apply() -> None:
            target.unlink()
            _remove_if_empty(target.parent)

        return Step(f"remove the configuration {CONFIG}", (f"delete {CONFIG}",), apply)

    def _remove_state_dir(self) -> Step | None:
        state = self._path(STATE_DIR)
        if not state.is_dir():
            return None
        kept = sum(1 for _ in state.iterdir())
        if kept and not self.purge:
            self.report.notes.append(f"Kept {STATE_DIR} with the game records ({kept} entries; --purge removes them).")
            return None
        return Step(
            f"remove {STATE_DIR} and the game records in it", (f"delete {STATE_DIR}",), lambda: shutil.rmtree(state)
        )

    def _remove_service_state(self) -> Step | None:
        found = [path for path in SERVICE_STATE_DIRS if self._path(path).is_dir()]
        if not found:
            return None

        def apply() -> None:
            for path in found:
                shutil.rmtree(self._path(path))

        return Step(f"remove {' and '.join(found)} (the web page's requests and reviews, the hotspot's key)",
                    tuple(f"delete {path}" for path in found), apply)

    def _remove_command_link(self) -> Step | None:
        link = self._path(COMMAND_LINK)
        if not (link.is_symlink() and str(link.readlink()) == VENV + "/bin/coyote-pi"):
            return None
        return Step("take the coyote-pi command off the PATH", (f"delete {COMMAND_LINK}",), link.unlink)

    def _remove_user(self) -> Step | None:
        if USER not in self._users():
            return None
        if self.record.get("user_created"):
            command = ["userdel", USER]
            return Step(f"remove the system user {USER}", _shown(command), lambda: self.runner(command))
        members = self._group_members()
        added = [group for group in self.record.get("groups_added", []) if USER in members.get(group, ())]
        if not added:
            return None
        commands = [["gpasswd", "--delete", USER, group] for group in added]
        return Step(
            f"take the user {USER} out of the groups the installer added: {', '.join(added)}",
            _shown(*commands),
            lambda: self._run_all(commands),
        )

    def _remove_web_user(self) -> Step | None:
        return self._remove_service_user(WEB_USER, "web_user_created", "the web page's")

    def _remove_hotspot_user(self) -> Step | None:
        return self._remove_service_user(HOTSPOT_USER, "hotspot_user_created", "the hotspot's")

    def _remove_service_user(self, name: str, record_key: str, whose: str) -> Step | None:
        if name not in self._users() or not self.record.get(record_key):
            return None
        command = ["userdel", name]
        return Step(f"remove {whose} system user {name}", _shown(command), lambda: self.runner(command))

    def _remove_polkit_rule(self) -> Step | None:
        return self._delete_file(POLKIT_RULE, f"take back {HOTSPOT_USER}'s NetworkManager rights (polkit)")

    def _remove_groups(self) -> Step | None:
        existing = self._group_members()
        created = [group for group in self.record.get("groups_created", []) if group in existing]
        if not created:
            return None
        commands = [["groupdel", group] for group in created]
        return Step(
            f"remove the groups the installer created: {', '.join(created)}",
            _shown(*commands),
            lambda: self._run_all(commands),
        )

    def _apt_remove(self) -> Step | None:
        recorded = self.record.get("apt_packages", [])
        if self.skip_apt or not recorded:
            return None
        installed = self._installed_packages()
        ours = [name for name in recorded if name in installed]
        if not ours:
            return None
        command = ["apt-get", "remove", "-y", *ours]
        return Step(
            f"remove the apt packages the installer installed: {' '.join(ours)}",
            _shown(command),
            lambda: self.runner(command),
        )

    def _remove_prefix(self) -> Step | None:
        prefix = self._path(PREFIX)
        if not prefix.exists():
            return None
        return Step(
            f"remove {PREFIX} (the virtual environment and the install record)",
            (f"delete {PREFIX}",),
            lambda: shutil.rmtree(prefix),
        )

    def _delete_file(self, path: str, summary: str) -> Step | None:
        target = self._path(path)
        if not target.exists():
            return None
        return Step(summary, (f"delete {path}",), target.unlink)

    def _remove_empty_dir(self, path: str) -> Step | None:
        target = self._path(path)
        if not target.is_dir() or any(target.iterdir()):
            return None
        return Step(f"remove the empty folder {path}", (f"delete {path}",), target.rmdir)

    # -- reading the system under root -------------------------------------------------

    def _path(self, absolute: str) -> Path:
        return under(self.root, absolute)

    def _run_all(self, commands: list[list[str]]) -> None:
        for command in commands:
            self.runner(command)

    def _systemd_running(self) -> bool:
        return systemd_running(self.root)

    def _boot_config_path(self) -> Path | None:
        return find_boot_config(self.root)

    def _installed_packages(self) -> set[str]:
        status = self._path("/var/lib/dpkg/status")
        if not status.is_file():
            raise InstallError(
                "no dpkg database here: this is not Debian or Raspberry Pi OS; "
                f"install {' '.join(APT_PACKAGES)} yourself and pass --skip-apt"
            )
        return installed_packages(status.read_text(encoding="utf-8"))

    def _users(self) -> set[str]:
        return users(self.root)

    def _group_members(self) -> dict[str, set[str]]:
        return group_members(self.root)

    # -- the install record ------------------------------------------------------------

    def _load_record(self) -> JsonObject:
        path = self._path(RECORD)
        if not path.is_file():
            return {}
        try:
            record: JsonObject = json.loads(path.read_text(encoding="utf-8"))
            return record
        except json.JSONDecodeError:
            raise InstallError(f"{RECORD} is damaged: fix or delete it, then run again") from None

    def _remember(self, key: str, value: object) -> None:
        """Note something the installer added, at once, so a later failure cannot lose it."""
        if isinstance(value, list):
            known = self.record.get(key, [])
            value = known + [item for item in value if item not in known]
        self.record[key] = value
        _write(self._path(RECORD), json.dumps(self.record, indent=2, sort_keys=True) + "\n")


# -- reading a system under a root (the doctor reads the same facts) ----------------------


def under(root: Path, absolute: str) -> Path:
    """``absolute`` (a path on the target system) inside ``root``."""
    return root / absolute.lstrip("/")


def pi_model(root: Path) -> str | None:
    """The board's name under ``root`` if it is a Raspberry Pi, else None (the doctor asks too)."""
    try:
        model = under(root, BOARD_MODEL).read_bytes().decode("utf-8", "replace")
    except OSError:
        return None
    model = model.rstrip("\0").strip()
    return model if model.startswith("Raspberry Pi") else None


def systemd_running(root: Path) -> bool:
    """True when systemd is PID 1 (``sd_booted()``): not so in a chroot or a container."""
    return under(root, "/run/systemd/system").is_dir()


def os_release(root: Path) -> dict[str, str]:
    """The ``KEY=value`` pairs of the os-release file under ``root`` (empty when there is none)."""
    for candidate in OS_RELEASE_FILES:
        try:
            text = under(root, candidate).read_text(encoding="utf-8")
        except OSError:
            continue
        fields = {}
        for line in text.splitlines():
            key, sep, value = (part.strip() for part in line.partition("="))
            if sep and key and not key.startswith("#"):
                quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'"
                fields[key] = value[1:-1] if quoted else value
        return fields
    return {}


def supported_release(root: Path) -> str:
    """The codename (a key of :data:`RELEASES`) of the system under ``root``.

    Raises :class:`UnsupportedRelease` naming the system and the supported releases.
    The 64-bit Raspberry Pi OS has Debian's os-release (``ID=debian``); the 32-bit one
    says ``ID=raspbian`` and is refused: PyPI has no OpenCV wheels for it, so pip would
    spend hours compiling OpenCV (and it is not tested).
    """
    fields = os_release(root)
    codename = fields.get("VERSION_CODENAME", "")
    if fields.get("ID") == "debian" and codename in RELEASES:
        return codename
    found = fields.get("PRETTY_NAME") or " ".join(filter(None, (fields.get("NAME"), codename)))
    what = f"{found} is not supported" if found else f"cannot tell which system this is (no {OS_RELEASE_FILES[0]})"
    raise UnsupportedRelease(f"{what}: coyote-pi installs on the 64-bit Raspberry Pi OS {' or '.join(RELEASES.values())}")


def constraints_for(codename: str) -> Path:
    """The pip constraints file that matches ``codename``'s apt camera stack."""
    return CONSTRAINTS_DIR / f"{codename}.txt"


def find_boot_config(root: Path) -> Path | None:
    """The firmware's config.txt under ``root``, or None when there is no Pi boot partition."""
    for candidate in BOOT_CONFIGS:
        path = under(root, candidate)
        # Bookworm leaves a stub /boot/config.txt that points to the real file.
        if path.is_file() and "DO NOT EDIT THIS FILE" not in path.read_text(encoding="utf-8", errors="replace"):
            return path
    return None


def users(root: Path) -> set[str]:
    """The user names in ``/etc/passwd``."""
    return {line.split(":", 1)[0] for line in _lines(under(root, "/etc/passwd"))}


def group_members(root: Path) -> dict[str, set[str]]:
    """``{group: its listed members}`` from ``/etc/group``."""
    groups = {}
    for line in _lines(under(root, "/etc/group")):
        fields = line.split(":")
        if len(fields) >= 4:
            groups[fields[0]] = {name for name in fields[3].split(",") if name}
    return groups


# -- pure helpers (tested directly) -----------------------------------------------------


def merge_block(text: str, fragment: str) -> str:
    """``text`` (a config.txt) with ``fragment`` between the coyote-pi markers.

    An existing block is replaced where it stands; otherwise the block is appended.
    """
    block = [BEGIN_MARK, *fragment.rstrip("\n").splitlines(), END_MARK]
    lines = text.splitlines()
    span = _block_span(lines)
    if span is None:
        head = text if text.endswith("\n") or not text else text + "\n"
        return head + "\n".join(block) + "\n"
    start, end = span
    return "\n".join(lines[:start] + block + lines[end + 1 :]) + "\n"


def remove_block(text: str) -> str:
    """``text`` without the coyote-pi block (unchanged when it has none)."""
    lines = text.splitlines(keepends=True)
    span = _block_span([line.rstrip("\r\n") for line in lines])
    if span is None:
        return text
    start, end = span
    return "".join(lines[:start] + lines[end + 1 :])


def _block_span(lines: list[str]) -> tuple[int, int] | None:
    starts = [i for i, line in enumerate(lines) if line.strip() == BEGIN_MARK]
    ends = [i for i, line in enumerate(lines) if line.strip() == END_MARK]
    if not starts and not ends:
        return None
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise InstallError(
            "config.txt has broken coyote-pi markers (each must appear once, begin before end): "
            "delete the coyote-pi lines by hand, then run again"
        )
    return starts[0], ends[0]


def installed_packages(dpkg_status: str) -> set[str]:
    """Names of the packages a dpkg status file lists as installed, and the names they
    provide: on Trixie ``libzbar0t64`` provides ``libzbar0`` (the 64-bit time transition
    renamed the library packages), which is the name the installer asks apt for."""
    names = set()
    for stanza in dpkg_status.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in stanza.splitlines() if ": " in line and not line.startswith(" "))
        if fields.get("Status", "").endswith(" installed") and "Package" in fields:
            names.add(fields["Package"])
            names.update(provided.split()[0] for provided in fields.get("Provides", "").split(",") if provided.strip())
    return names


def source_fingerprint(repo: Path) -> str:
    """A hash of everything pip installs from ``repo``: changes when the code does."""
    digest = hashlib.sha256()
    for path in _source_files(repo):
        digest.update(str(path.relative_to(repo)).encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def copy_source(repo: Path, destination: Path) -> None:
    """Copy what pip needs to build the project (see :data:`SOURCE_PARTS`) to ``destination``."""
    for path in _source_files(repo):
        target = destination / path.relative_to(repo)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)


def _source_files(repo: Path) -> Iterator[Path]:
    for part in SOURCE_PARTS:
        path = repo / part
        candidates = sorted(path.rglob("*")) if path.is_dir() else [path]
        for candidate in candidates:
            if candidate.is_file() and "__pycache__" not in candidate.parts and candidate.suffix != ".pyc":
                yield candidate


def _shown(*commands: Sequence[str]) -> tuple[str, ...]:
    return tuple(f"$ {shlex.join(command)}" for command in commands)


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically and durably (:func:`files.write_atomically`):
    a power cut leaves the old file or the new one, and the rename is on the disk too (for
    /boot/firmware/config.txt this decides whether the Pi boots). A new file gets the usual
    mode (0666 less the umask), a replaced one keeps its mode."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        files.write_atomically(path, text.encode("utf-8"), durable=True)
    except OSError as err:
        raise InstallError(f"cannot write {path}: {err.strerror or err}") from None


def _remove_if_empty(path: Path) -> None:
    if path.is_dir() and not any(path.iterdir()):
        path.rmdir()

