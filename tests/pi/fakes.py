"""A throwaway Raspberry Pi OS root and a fake of the commands the installer runs.

The installer decides every step from files (the dpkg database, /etc/passwd and
/etc/group, the venv's pyvenv.cfg, the systemd symlinks), so a fake that makes each
command's effect on those files lets the tests run it twice, uninstall it and compare
whole trees, without touching this machine.
"""

from __future__ import annotations

import shlex
import tomllib
from collections.abc import Sequence
from pathlib import Path

from coyote_pi.pi import install

#: The end of Raspberry Pi OS Bookworm's stock /boot/firmware/config.txt.
STOCK_CONFIG_TXT = """\
# For more options and information see
# http://rptl.io/configtxt
#dtparam=i2c_arm=on
#dtparam=spi=on
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
arm_64bit=1

[cm4]
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
"""

PASSWD = "root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000:,,,:/home/pi:/bin/bash\n"
GROUP = "root:x:0:\naudio:x:29:pi\nvideo:x:44:pi\ni2c:x:994:pi\ngpio:x:993:pi\npi:x:1000:\n"
#: python3-venv is already there, so the installer must leave it out of apt-get install.
DPKG_STATUS = "Package: bash\nStatus: install ok installed\n\nPackage: python3-venv\nStatus: install ok installed\n"

#: /usr/lib/os-release of Raspberry Pi OS (64-bit), by release: Debian's file.
OS_RELEASE = {
    "bookworm": """\
PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
VERSION="12 (bookworm)"
VERSION_CODENAME=bookworm
ID=debian
HOME_URL="https://www.debian.org/"
""",
    "trixie": """\
PRETTY_NAME="Debian GNU/Linux 13 (trixie)"
NAME="Debian GNU/Linux"
VERSION_ID="13"
VERSION="13 (trixie)"
VERSION_CODENAME=trixie
DEBIAN_VERSION_FULL=13.1
ID=debian
HOME_URL="https://www.debian.org/"
""",
}


def make_pi_root(root: Path, release: str = "bookworm") -> Path:
    """Write the files of a fresh Raspberry Pi OS ``release`` (as far as the installer reads them) into ``root``."""
    files = {
        "etc/passwd": PASSWD,
        "etc/group": GROUP,
        "var/lib/dpkg/status": DPKG_STATUS,
        "boot/firmware/config.txt": STOCK_CONFIG_TXT,
        "usr/lib/os-release": OS_RELEASE[release],
        "proc/device-tree/model": "Raspberry Pi 4 Model B Rev 1.5\0",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    # Folders every Debian has, so that uninstalling can be checked to leave no trace.
    # (Raspberry Pi OS has polkit: NetworkManager asks it; the last: systemd is PID 1.)
    for folder in ("opt", "usr/local/bin", "etc/modules-load.d", "etc/polkit-1/rules.d", "run/systemd/system"):
        (root / folder).mkdir(parents=True)
    (root / "etc/os-release").symlink_to("../usr/lib/os-release")  # as on Debian
    wants = root / "etc/systemd/system/multi-user.target.wants"
    wants.mkdir(parents=True)
    (wants / "ssh.service").symlink_to("/lib/systemd/system/ssh.service")
    return root


def snapshot(root: Path) -> dict[str, object]:
    """Every folder, file (its bytes) and symlink (its target) under ``root``."""
    tree: dict[str, object] = {}
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        if path.is_symlink():
            tree[name] = ("link", str(path.readlink()))
        elif path.is_dir():
            tree[name] = "dir"
        else:
            tree[name] = path.read_bytes()
    return tree


class FakeSystem:
    """The installer's runner for tests: records each command and applies its effect under ``root``."""

    def __init__(self, root: Path):
        self.root = root
        self.commands: list[list[str]] = []
        self.fail_on: str | None = None
        self._next_id = 900

    def lines(self) -> list[str]:
        return [shlex.join(command) for command in self.commands]

    def __call__(self, argv: Sequence[str]) -> None:
        argv = list(argv)
        self.commands.append(argv)
        if self.fail_on and argv[0] == self.fail_on:
            raise install.InstallError(f"`{shlex.join(argv)}` failed with exit status 1")
        if argv[0] == install.SYSTEM_PYTHON and argv[1:3] == ["-m", "venv"]:
            return self._venv(argv)
        if argv[0] == install.VENV + "/bin/python" and argv[1:4] == ["-m", "pip", "install"]:
            return self._pip(argv)
        handler = getattr(self, "_" + argv[0].replace("-", "_"), None)
        if handler is None:
            raise AssertionError(f"the installer ran an unexpected command: {shlex.join(argv)}")
        handler(argv[1:])

    # -- files ----------------------------------------------------------------------

    def _file(self, absolute: str) -> Path:
        return self.root / absolute.lstrip("/")

    def _edit_lines(self, absolute: str, edit) -> None:
        path = self._file(absolute)
        lines = path.read_text().splitlines()
        path.write_text("".join(line + "\n" for line in edit(lines)))

    def _set_members(self, group: str, change) -> None:
        def edit(lines):
            for line in lines:
                fields = line.split(":")
                if fields[0] == group:
                    members = [m for m in fields[3].split(",") if m]
                    fields[3] = ",".join(change(members))
                yield ":".join(fields)

        self._edit_lines("/etc/group", edit)

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    # -- the commands -----------------------------------------------------------------

    def _apt_get(self, args: list[str]) -> None:
        verb, names = args[0], [a for a in args[1:] if not a.startswith("-")]
        status = self._file("/var/lib/dpkg/status")
        if verb == "install":
            status.write_text(
                status.read_text() + "".join(f"\nPackage: {n}\nStatus: install ok installed\n" for n in names)
            )
        elif verb == "remove":
            stanzas = status.read_text().strip("\n").split("\n\n")
            kept = [s for s in stanzas if s.splitlines()[0].removeprefix("Package: ") not in names]
            status.write_text("\n\n".join(kept) + "\n")
        else:
            assert verb == "update", args

    def _groupadd(self, args: list[str]) -> None:
        assert args[0] == "--system"
        self._edit_lines("/etc/group", lambda lines: [*lines, f"{args[1]}:x:{self._new_id()}:"])

    def _groupdel(self, args: list[str]) -> None:
        self._edit_lines("/etc/group", lambda lines: [x for x in lines if x.split(":")[0] != args[0]])

    def _useradd(self, args: list[str]) -> None:
        name, uid = args[-1], self._new_id()
        assert "--system" in args and "--user-group" in args
        home, shell = args[args.index("--home-dir") + 1], args[args.index("--shell") + 1]
        self._edit_lines("/etc/passwd", lambda lines: [*lines, f"{name}:x:{uid}:{uid}::{home}:{shell}"])
        self._edit_lines("/etc/group", lambda lines: [*lines, f"{name}:x:{uid}:"])
        groups = args[args.index("--groups") + 1].split(",") if "--groups" in args else []
        for group in groups:
            self._set_members(group, lambda members: [*members, name])

    def _usermod(self, args: list[str]) -> None:
        assert args[:2] == ["--append", "--groups"]
        for group in args[2].split(","):
            self._set_members(group, lambda members: [*members, args[3]])

    def _gpasswd(self, args: list[str]) -> None:
        assert args[0] == "--delete"
        self._set_members(args[2], lambda members: [m for m in members if m != args[1]])

    def _userdel(self, args: list[str]) -> None:
        name = args[0]
        self._edit_lines("/etc/passwd", lambda lines: [x for x in lines if x.split(":")[0] != name])
        self._edit_lines("/etc/group", lambda lines: [x for x in lines if x.split(":")[0] != name])
        for line in self._file("/etc/group").read_text().splitlines():
            self._set_members(line.split(":")[0], lambda members: [m for m in members if m != name])

    def _systemctl(self, args: list[str]) -> None:
        names = [name for name in args[1:] if not name.startswith("--")]
        if args[0] == "enable":
            for name in names:
                self._file(install.WANTS_DIR + name).symlink_to("../" + name)
        elif args[0] == "disable":
            for name in names:
                self._file(install.WANTS_DIR + name).unlink(missing_ok=True)
        else:
            assert args[0] in ("daemon-reload", "restart"), args

    def _venv(self, argv: list[str]) -> None:
        venv = self._file(argv[-1])
        assert "--system-site-packages" in argv
        if "--clear" in argv and venv.exists():
            for path in sorted(venv.rglob("*"), reverse=True):
                path.rmdir() if path.is_dir() else path.unlink()
        (venv / "bin").mkdir(parents=True, exist_ok=True)
        (venv / "bin/python").write_text("")
        (venv / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = true\n")

    def _pip(self, argv: list[str]) -> None:
        source = Path(argv[-1])
        assert (source / "pyproject.toml").is_file() and (source / "coyote_pi/pi/install.py").is_file()
        assert Path(argv[argv.index("--constraint") + 1]).is_file()
        site = self._file(install.VENV + "/lib/python3/site-packages")
        site.mkdir(parents=True, exist_ok=True)
        # What pip installed: the source's version (an update replaces it).
        (site / "coyote_pi-installed").write_text(_version(source / "pyproject.toml") + "\n")


def _version(pyproject: Path) -> str:
    return tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
