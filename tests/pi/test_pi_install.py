"""The installer against a throwaway Raspberry Pi OS root, its commands run by a fake.

What matters to a host: a dry run changes nothing, an install does every step, a second
install does none, and an uninstall puts the tree back as it was (the documented
config.txt backup aside), keeping what the host made.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import subprocess
import sys
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from coyote_pi.commands import install as install_command
from coyote_pi.config import PAGE_SETTINGS_FILE, TableConfig, page_settings_text, with_page_settings
from coyote_pi.devices.config import DevicesConfig
from coyote_pi.devices.focus import save_focus
from coyote_pi.engine.game import GameConfig
from coyote_pi.engine.players import ScriptedPlayer, next_scripted_event
from coyote_pi.pi import install
from coyote_pi.pi.install import Installer, InstallError, merge_block, remove_block
from coyote_pi.record import RecordedGame

from .fakes import OS_RELEASE, STOCK_CONFIG_TXT, FakeSystem, make_pi_root, snapshot

BOOT = "boot/firmware/config.txt"
BACKUP = BOOT + install.BACKUP_SUFFIX


def shipped_units() -> list[str]:
    """The units this checkout ships (the web page's comes with the page's own branch)."""
    return [name for name in install.UNIT_NAMES if (install.UNIT_SOURCES / name).is_file()]


def quiet(root: Path, system: FakeSystem, **options) -> Installer:
    return Installer(root, system, out=lambda line: None, **options)


def test_dry_run_prints_every_step_and_changes_nothing(pi_root, system, tmp_path):
    before = snapshot(pi_root)
    printed: list[str] = []
    report = Installer(pi_root, system, dry_run=True, out=printed.append).install()

    assert snapshot(pi_root) == before
    assert system.commands == []
    summaries = [step.summary for step in report.steps]
    # apt, user, web user, user in the web group, hotspot user, polkit rule, venv, pip, link,
    # config, modules, boot, units, enable: each step the real install of the same system takes
    real_root = make_pi_root(tmp_path / "real")
    assert summaries == [step.summary for step in quiet(real_root, FakeSystem(real_root)).install().steps]
    assert len(summaries) == 14, summaries
    text = "\n".join(printed)
    missing = [name for name in install.APT_PACKAGES if name != "python3-venv"]
    assert f"$ apt-get install -y --no-install-recommends {' '.join(missing)}" in text
    assert f"$ {install.SYSTEM_PYTHON} -m venv --clear --system-site-packages {install.VENV}" in text
    assert f"$ systemctl enable {' '.join(shipped_units())}" in text


def test_a_dry_run_off_a_pi_says_the_camera_stack_comes_from_raspberry_pis_archive(pi_root, system):
    printed: list[str] = []
    Installer(pi_root, system, dry_run=True, out=printed.append).install()
    assert not any(line.startswith("Not a Raspberry Pi") for line in printed)

    (pi_root / "proc/device-tree/model").unlink()  # a PC: no device tree
    printed.clear()
    Installer(pi_root, system, dry_run=True, out=printed.append).install()
    warning = [line for line in printed if line.startswith("Not a Raspberry Pi")]
    assert len(warning) == 1 and "python3-picamera2" in warning[0] and "Raspberry Pi's archive" in warning[0]
    assert printed.index(warning[0]) < next(i for i, line in enumerate(printed) if "apt-get install" in line)


def test_a_skipped_apt_package_is_left_out_and_named(pi_root, system):
    report = quiet(pi_root, system, skip_packages=["python3-picamera2", "python3-lgpio"]).install()

    apt = [line for line in system.lines() if line.startswith("apt-get install")]
    assert apt == ["apt-get install -y --no-install-recommends libzbar0 i2c-tools espeak-ng alsa-utils"]
    assert any(note.startswith("Not installed (--skip-apt-package): python3-picamera2, python3-lgpio")
               for note in report.notes)


def test_install_makes_every_part(pi_root, system):
    report = quiet(pi_root, system).install()

    lines = system.lines()
    missing = [name for name in install.APT_PACKAGES if name != "python3-venv"]
    assert lines[:2] == ["apt-get update", "apt-get install -y --no-install-recommends " + " ".join(missing)]
    assert (
        "useradd --system --user-group --home-dir /var/lib/coyote-pi --no-create-home "
        "--shell /usr/sbin/nologin --groups gpio,i2c,video,audio coyote"
    ) in lines
    pip = next(c for c in system.commands if c[1:4] == ["-m", "pip", "install"])
    assert pip[pip.index("--constraint") + 1] == str(install.CONSTRAINTS_DIR / "bookworm.txt")
    assert f"systemctl enable {' '.join(shipped_units())}" in lines
    assert (
        "useradd --system --user-group --home-dir /var/lib/coyote-pi-web --no-create-home "
        "--shell /usr/sbin/nologin --groups coyote coyote-web"
    ) in lines
    assert "usermod --append --groups coyote-web coyote" in lines
    assert (
        "useradd --system --user-group --home-dir /var/lib/coyote-pi-hotspot --no-create-home "
        "--shell /usr/sbin/nologin coyote-hotspot"
    ) in lines
    rule = pi_root / install.POLKIT_RULE.lstrip("/")
    assert rule.read_text() == install.POLKIT_RULE_SOURCE.read_text()
    group = (pi_root / "etc/group").read_text()
    assert any(line.startswith("coyote:") and line.endswith(":coyote-web") for line in group.splitlines())
    assert any(line.startswith("coyote-web:") and line.endswith(":coyote") for line in group.splitlines())
    for name in shipped_units():
        assert (pi_root / install.UNIT_DIR.lstrip("/") / name).read_text() == (install.UNIT_SOURCES / name).read_text()
        assert (pi_root / install.WANTS_DIR.lstrip("/") / name).is_symlink()
    # The firmware changed, so the host reboots rather than the service restarting now.
    assert "systemctl restart coyote-pi.service" not in lines
    assert any("sudo reboot" in note for note in report.notes)

    assert (pi_root / "usr/local/bin/coyote-pi").readlink() == Path(install.VENV + "/bin/coyote-pi")
    unit = pi_root / "etc/systemd/system/coyote-pi.service"
    assert unit.read_text() == install.UNIT_SOURCE.read_text()
    assert (pi_root / "etc/systemd/system/multi-user.target.wants/coyote-pi.service").is_symlink()
    assert (pi_root / "etc/coyote-pi/config.toml").read_text() == install.CONFIG_TEMPLATE.read_text()
    assert (pi_root / "etc/modules-load.d/coyote-pi.conf").read_text().splitlines()[-1] == "i2c-dev"
    boot = (pi_root / BOOT).read_text()
    assert boot.startswith(STOCK_CONFIG_TXT)
    assert boot.count("dtoverlay=gpio-shutdown,gpio_pin=21,active_low=1,gpio_pull=up") == 1
    assert (pi_root / BACKUP).read_text() == STOCK_CONFIG_TXT
    record = json.loads((pi_root / "opt/coyote-pi/install-record.json").read_text())
    assert record["apt_packages"] == missing
    assert record["user_created"] is True


def test_second_install_changes_nothing(pi_root, system):
    quiet(pi_root, system).install()
    installed = snapshot(pi_root)
    system.commands.clear()

    report = quiet(pi_root, system).install()

    assert report.steps == []
    assert system.commands == []
    assert snapshot(pi_root) == installed


def test_uninstall_restores_the_original_tree(pi_root, system):
    original = snapshot(pi_root)
    quiet(pi_root, system).install()
    installed_boot = (pi_root / BOOT).read_bytes()
    system.commands.clear()

    quiet(pi_root, system).uninstall()

    after = snapshot(pi_root)
    # The one documented leftover: the backup of config.txt from before the removal.
    assert after.pop(BACKUP) == installed_boot
    assert after == original
    lines = system.lines()
    assert lines[0] == f"systemctl disable --now {' '.join(shipped_units())}"
    assert "userdel coyote" in lines and "userdel coyote-web" in lines and "userdel coyote-hotspot" in lines
    missing = [name for name in install.APT_PACKAGES if name != "python3-venv"]
    assert lines[-1] == "apt-get remove -y " + " ".join(missing)

    system.commands.clear()
    assert quiet(pi_root, system).uninstall().steps == []
    assert system.commands == []


def test_an_edited_configuration_survives_reinstall_and_uninstall_unless_purged(pi_root, system):
    quiet(pi_root, system).install()
    config = pi_root / "etc/coyote-pi/config.toml"
    config.write_text(config.read_text() + "# the host's own line\n")

    assert quiet(pi_root, system).install().steps == []
    assert config.read_text().endswith("# the host's own line\n")

    report = quiet(pi_root, system).uninstall()
    assert config.is_file()
    assert any("Kept /etc/coyote-pi/config.toml" in note for note in report.notes)

    quiet(pi_root, system, purge=True).uninstall()
    assert not config.parent.exists()


def test_a_configuration_that_was_there_before_is_never_touched(pi_root, system):
    config = pi_root / "etc/coyote-pi/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("# written by the host before installing\n")

    quiet(pi_root, system).install()
    quiet(pi_root, system).uninstall()

    assert config.read_text() == "# written by the host before installing\n"


def test_game_records_are_kept_unless_purged(pi_root, system):
    quiet(pi_root, system).install()
    records = pi_root / "var/lib/coyote-pi"
    records.mkdir(parents=True)
    (records / "game-1.jsonl").write_text("{}\n")

    report = quiet(pi_root, system).uninstall()
    assert (records / "game-1.jsonl").is_file()
    assert any("game records" in note for note in report.notes)

    quiet(pi_root, system, purge=True).uninstall()
    assert not records.exists()


def test_the_pages_requests_and_the_hotspots_key_go_with_the_install(pi_root, system):
    quiet(pi_root, system).install()
    for folder, name in (("var/lib/coyote-pi-web/requests", "preview.want"), ("var/lib/coyote-pi-hotspot", "key")):
        (pi_root / folder).mkdir(parents=True)
        (pi_root / folder / name).write_text("made by the running services")
    quiet(pi_root, system).uninstall()
    assert not (pi_root / "var/lib/coyote-pi-web").exists() and not (pi_root / "var/lib/coyote-pi-hotspot").exists()


def test_new_code_is_reinstalled_and_the_service_restarted(pi_root, system):
    quiet(pi_root, system).install()
    (pi_root / install.SOURCE_STAMP.lstrip("/")).write_text("an older source\n")
    system.commands.clear()

    report = quiet(pi_root, system).install()

    assert [step.summary.split()[0] for step in report.steps] == ["install", "restart"]
    restarted = [name for name in shipped_units() if name in install.RESTARTED_UNITS]
    assert system.lines()[-1] == "systemctl restart " + " ".join(restarted)  # the table and its page


def test_a_table_that_cannot_start_leaves_the_install_done_with_a_note(pi_root, system):
    # make test-boot's machine has no GPIO: the table's start fails, so did the restart,
    # and the installer stopped with "Steps before it are done; run again", exit 1.
    quiet(pi_root, system).install()
    (pi_root / install.SOURCE_STAMP.lstrip("/")).write_text("an older source\n")

    def table_cannot_start(argv):
        system(argv)
        if argv[:2] == ["systemctl", "restart"]:
            raise InstallError(f"`{' '.join(argv)}` failed with exit status 1")

    report = Installer(pi_root, table_cannot_start, out=lambda line: None).install()

    assert [step.summary.split()[0] for step in report.steps] == ["install", "restart"]
    assert any("did not all start" in note and "coyote-pi doctor" in note for note in report.notes)


def test_an_existing_user_gets_the_groups_and_keeps_its_account(pi_root, system):
    with (pi_root / "etc/passwd").open("a") as passwd:
        passwd.write("coyote:x:1001:1001::/home/coyote:/bin/bash\n")
    with (pi_root / "etc/group").open("a") as group:
        group.write("coyote:x:1001:\n")
    before = snapshot(pi_root)

    quiet(pi_root, system).install()
    assert "usermod --append --groups gpio,i2c,video,audio coyote" in system.lines()
    system.commands.clear()
    quiet(pi_root, system).uninstall()

    assert [line for line in system.lines() if "coyote " in line or line.endswith("coyote")] == [
        "gpasswd --delete coyote gpio",
        "gpasswd --delete coyote i2c",
        "gpasswd --delete coyote video",
        "gpasswd --delete coyote audio",
        "gpasswd --delete coyote coyote-web",
    ]
    after = snapshot(pi_root)
    after.pop(BACKUP)
    assert after == before


def test_a_coyote_pi_command_that_is_not_the_installers_is_left_alone(pi_root, system):
    own = pi_root / "usr/local/bin/coyote-pi"
    own.write_text("#!/bin/sh\necho the host's own\n")

    report = quiet(pi_root, system).install()
    quiet(pi_root, system).uninstall()

    assert any("Left /usr/local/bin/coyote-pi alone" in note for note in report.notes)
    assert own.read_text() == "#!/bin/sh\necho the host's own\n"


def test_missing_groups_are_created_and_removed_again(pi_root, system):
    (pi_root / "etc/group").write_text("root:x:0:\naudio:x:29:\nvideo:x:44:\n")
    before = snapshot(pi_root)

    quiet(pi_root, system).install()
    assert [x for x in system.lines() if "groupadd" in x] == ["groupadd --system gpio", "groupadd --system i2c"]
    quiet(pi_root, system).uninstall()

    after = snapshot(pi_root)
    after.pop(BACKUP)
    assert after == before


def test_a_venv_that_cannot_see_the_apt_packages_is_made_again(pi_root, system):
    cfg = pi_root / "opt/coyote-pi/venv/pyvenv.cfg"
    cfg.parent.mkdir(parents=True)
    cfg.write_text("home = /usr/bin\ninclude-system-site-packages = false\n")

    quiet(pi_root, system).install()

    assert f"{install.SYSTEM_PYTHON} -m venv --clear --system-site-packages {install.VENV}" in system.lines()
    assert "include-system-site-packages = true" in cfg.read_text()


def test_a_failed_step_keeps_what_came_before_and_the_next_run_goes_on(pi_root, system):
    system.fail_on = "useradd"
    with pytest.raises(InstallError, match="useradd"):
        quiet(pi_root, system).install()
    system.fail_on = None
    system.commands.clear()

    quiet(pi_root, system).install()
    assert not any(line.startswith("apt-get") for line in system.lines())
    system.commands.clear()
    quiet(pi_root, system).uninstall()
    # The packages from the first, failed run are still known as the installer's.
    assert system.lines()[-1].startswith("apt-get remove -y python3-picamera2")


def test_without_systemd_running_nothing_is_started_or_stopped(pi_root, system):
    (pi_root / "run/systemd/system").rmdir()
    quiet(pi_root, system).install()
    assert not any("daemon-reload" in line or "restart" in line for line in system.lines())
    system.commands.clear()
    quiet(pi_root, system).uninstall()
    assert system.lines()[0] == f"systemctl disable {' '.join(shipped_units())}"


def test_skip_apt_leaves_packages_alone(pi_root, system):
    quiet(pi_root, system, skip_apt=True).install()
    quiet(pi_root, system, skip_apt=True).uninstall()
    assert not any(line.startswith("apt-get") for line in system.lines())


def test_no_dpkg_database_is_a_clear_error(pi_root, system):
    (pi_root / "var/lib/dpkg/status").unlink()
    with pytest.raises(InstallError, match="--skip-apt"):
        quiet(pi_root, system).install()


def test_older_images_keep_config_txt_in_boot_and_bookworm_stubs_are_skipped(pi_root, system):
    (pi_root / BOOT).unlink()
    (pi_root / "boot/config.txt").write_text("DO NOT EDIT THIS FILE\n\nThe file you are looking for has moved.\n")
    report = quiet(pi_root, system).install()
    assert any("firmware settings skipped" in note for note in report.notes)
    assert (pi_root / "boot/config.txt").read_text().startswith("DO NOT EDIT")

    (pi_root / "boot/config.txt").write_text("dtparam=audio=on\n")
    quiet(pi_root, system).install()
    assert install.BEGIN_MARK in (pi_root / "boot/config.txt").read_text()


# -- the release and its constraints --------------------------------------------------------


def pins(constraints: Path) -> dict[str, str]:
    """``{name: version}`` of the ``name==version`` lines of a pip constraints file."""
    lines = (line.split("#")[0].strip() for line in constraints.read_text().splitlines())
    return dict(line.split("==") for line in lines if "==" in line)


@pytest.mark.parametrize(
    ("release", "numpy", "pillow"),
    [("bookworm", "1.24.2", "9.4.0"), ("trixie", "2.2.4", "11.1.0")],
)
def test_each_release_gets_the_constraints_of_its_apt_camera_stack(tmp_path, release, numpy, pillow):
    """The pins are apt's numpy and Pillow of that release: picamera2 from apt is built on that numpy."""
    root = make_pi_root(tmp_path / release, release)
    system = FakeSystem(root)
    quiet(root, system).install()

    pip = next(c for c in system.commands if c[1:4] == ["-m", "pip", "install"])
    constraints = Path(pip[pip.index("--constraint") + 1])
    assert constraints == install.CONSTRAINTS_DIR / f"{release}.txt"
    assert {"numpy": numpy, "pillow": pillow}.items() <= pins(constraints).items()


def test_every_supported_release_has_a_constraints_file_naming_its_python():
    """``make test-pi-os`` makes one venv per file, with the Python its ``# python:`` line names."""
    assert sorted(path.stem for path in install.CONSTRAINTS_DIR.glob("*.txt")) == sorted(install.RELEASES)
    pythons = {}
    for release in install.RELEASES:
        text = install.constraints_for(release).read_text()
        pythons[release] = next(line.split(":")[1].strip() for line in text.splitlines() if line.startswith("# python:"))
    assert pythons == {"bookworm": "3.11", "trixie": "3.13"}


def test_os_release_values_may_be_quoted_or_not_and_a_stray_quote_is_no_crash(pi_root):
    (pi_root / "usr/lib/os-release").write_text(
        "# a comment\nID=debian\nVERSION_CODENAME='trixie'\nNAME=\"Debian GNU/Linux\nPRETTY_NAME=\"x\"\n"
    )
    assert install.os_release(pi_root)["NAME"] == '"Debian GNU/Linux'
    assert install.supported_release(pi_root) == "trixie"


UNSUPPORTED = {
    "bullseye": ('PRETTY_NAME="Debian GNU/Linux 11 (bullseye)"\nID=debian\nVERSION_CODENAME=bullseye\n',
                 "Debian GNU/Linux 11 (bullseye) is not supported"),
    # The 32-bit Raspberry Pi OS: no OpenCV wheels on PyPI.
    "32-bit": ('PRETTY_NAME="Raspbian GNU/Linux 12 (bookworm)"\nID=raspbian\nID_LIKE=debian\n'
               "VERSION_CODENAME=bookworm\n", "Raspbian GNU/Linux 12 (bookworm) is not supported"),
    "ubuntu": ('PRETTY_NAME="Ubuntu 24.04.1 LTS"\nID=ubuntu\nID_LIKE=debian\nVERSION_CODENAME=noble\n',
               "Ubuntu 24.04.1 LTS is not supported"),
    "no os-release": (None, "cannot tell which system this is (no /etc/os-release)"),
}


@pytest.mark.parametrize("system_name", sorted(UNSUPPORTED))
def test_an_unsupported_release_is_refused_in_one_line_before_any_change(pi_root, system_name, monkeypatch, capsys):
    text, says = UNSUPPORTED[system_name]
    (pi_root / "usr/lib/os-release").unlink()
    if text is not None:
        (pi_root / "usr/lib/os-release").write_text(text)
    before = snapshot(pi_root)
    monkeypatch.setattr(subprocess, "run", lambda *args, **kwargs: pytest.fail("a command was run"))

    assert install_command.run(cli_args(root=str(pi_root))) == 1

    assert snapshot(pi_root) == before
    error = capsys.readouterr().err
    assert error == (
        f"coyote-pi install: {says}: coyote-pi installs on "
        "the 64-bit Raspberry Pi OS Bookworm (Debian 12) or Trixie (Debian 13)\n"
    )


def test_uninstall_works_after_an_upgrade_to_an_unsupported_release(pi_root, system):
    quiet(pi_root, system).install()
    (pi_root / "usr/lib/os-release").write_text(OS_RELEASE["bookworm"].replace("bookworm", "forky"))

    quiet(pi_root, system).uninstall()

    assert not (pi_root / install.UNIT.lstrip("/")).exists()
    with pytest.raises(install.UnsupportedRelease, match="forky"):
        quiet(pi_root, system).install()


def test_the_installer_installs_no_fonts_the_device_does_not_use():
    """The OLED draws with the DejaVu files inside the package, never the system's fonts."""
    from coyote_pi.devices import render

    shipped = {path.name for path in (install.REPO / "coyote_pi/data/fonts").glob("*.ttf")}
    assert set(render.FONT_FILES.values()) <= shipped
    assert not [name for name in install.APT_PACKAGES if name.startswith("fonts-")]


# -- writing files ---------------------------------------------------------------------------


def test_config_txt_is_replaced_atomically_and_flushed(pi_root, system, monkeypatch):
    """Written to a temporary file, fsynced, renamed over config.txt, then the folder fsynced."""
    boot = pi_root / BOOT
    events: list[tuple] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        target = Path(os.readlink(f"/proc/self/fd/{fd}"))
        events.append(("fsync", target, target.read_text() if target.is_file() else None))
        real_fsync(fd)

    def replace(source, destination):
        events.append(("replace", Path(source), Path(destination)))
        real_replace(source, destination)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    quiet(pi_root, system).install()

    new_text = boot.read_text()
    assert install.BEGIN_MARK in new_text
    replacing = next(i for i, event in enumerate(events) if event[0] == "replace" and event[2] == boot)
    temporary = events[replacing][1]
    assert temporary.parent == boot.parent and not temporary.exists()
    assert ("fsync", temporary, new_text) in events[:replacing]  # the whole new file was on the card first
    assert events[replacing + 1] == ("fsync", boot.parent, None)  # then the rename itself


def test_a_failed_write_leaves_config_txt_as_it_was(pi_root, system, monkeypatch):
    real_replace = os.replace

    def replace(source, destination):
        if Path(destination).name == "config.txt":
            raise OSError(errno.EIO, "Input/output error")
        real_replace(source, destination)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(InstallError, match=r"cannot write .*config.txt: Input/output error"):
        quiet(pi_root, system).install()

    assert (pi_root / BOOT).read_text() == STOCK_CONFIG_TXT
    assert sorted(path.name for path in (pi_root / BOOT).parent.iterdir()) == ["config.txt", "config.txt.coyote-pi.bak"]


def test_new_files_are_readable_by_the_service_and_replaced_ones_keep_their_mode(pi_root, system):
    (pi_root / BOOT).chmod(0o600)
    old_umask = os.umask(0o022)
    try:
        quiet(pi_root, system).install()
    finally:
        os.umask(old_umask)
    assert (pi_root / "etc/coyote-pi/config.toml").stat().st_mode & 0o777 == 0o644  # the user coyote reads it
    assert (pi_root / BOOT).stat().st_mode & 0o777 == 0o600


# -- the config.txt block ----------------------------------------------------------------


def test_merge_appends_a_block_and_replaces_an_outdated_one_in_place():
    merged = merge_block("dtparam=audio=on\n[pi4]\narm_boost=1\n", "[all]\nold=1\n")
    assert merged.splitlines() == [
        "dtparam=audio=on", "[pi4]", "arm_boost=1", install.BEGIN_MARK, "[all]", "old=1", install.END_MARK,
    ]  # fmt: skip
    updated = merge_block(merged + "# the host's line after the block\n", "[all]\nnew=1\n")
    assert "old=1" not in updated
    assert updated.endswith(f"new=1\n{install.END_MARK}\n# the host's line after the block\n")
    assert remove_block(updated) == "dtparam=audio=on\n[pi4]\narm_boost=1\n# the host's line after the block\n"


def test_merge_is_stable_and_handles_a_missing_final_newline():
    once = merge_block("a=1", "b=2\n")
    assert once == f"a=1\n{install.BEGIN_MARK}\nb=2\n{install.END_MARK}\n"
    assert merge_block(once, "b=2\n") == once
    assert remove_block("a=1\n") == "a=1\n"


@pytest.mark.parametrize(
    "text",
    [
        f"{install.BEGIN_MARK}\nx=1\n",
        f"{install.END_MARK}\n{install.BEGIN_MARK}\n",
        f"{install.BEGIN_MARK}\n" * 2 + install.END_MARK,
    ],
)
def test_broken_markers_are_refused_not_guessed(text):
    with pytest.raises(InstallError, match="broken coyote-pi markers"):
        merge_block(text, "x=1\n")


def test_installed_packages_reads_only_installed_stanzas():
    status = (
        "Package: a\nStatus: install ok installed\nDescription: x\n continued: y\n\n"
        "Package: b\nStatus: deinstall ok config-files\n\nPackage: c\nStatus: install ok installed\n"
    )
    assert install.installed_packages(status) == {"a", "c"}


def test_a_package_that_provides_the_wanted_name_counts_as_installed():
    """Trixie's libzbar0t64 provides libzbar0; a removed package provides nothing."""
    status = (
        "Package: libzbar0t64\nStatus: install ok installed\nProvides: libzbar0 (= 0.23.93-8), zbar-lib\n\n"
        "Package: old\nStatus: deinstall ok config-files\nProvides: gone\n"
    )
    assert install.installed_packages(status) == {"libzbar0t64", "libzbar0", "zbar-lib"}


def test_the_installed_configuration_is_the_annotated_example_with_the_real_defaults():
    """One template: `make install` writes the example that documents every key, and each
    device value it writes is the real table's default, so the two cannot drift apart."""
    example = Path(str(resources.files("coyote_pi").joinpath("data", "coyote-pi.example.toml")))
    assert install.CONFIG_TEMPLATE.resolve() == example.resolve()
    written = tomllib.loads(example.read_text(encoding="utf-8"))
    real = DevicesConfig.preset("real")
    for section in ("display", "buttons", "camera"):
        assert written[section], section
        for key, value in written[section].items():
            assert getattr(getattr(real, section), key) == value, f"[{section}] {key}"


# -- the command line ----------------------------------------------------------------------


def cli_args(**overrides) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    install_command.configure(parser)
    args = parser.parse_args([])
    vars(args).update(overrides)
    return args


def test_the_real_root_needs_root_and_says_the_command_that_needs_no_make(monkeypatch, capsys):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert install_command.run(cli_args()) == 1
    error = capsys.readouterr().err
    assert "run `sudo python3 -m coyote_pi.commands.install` (or `sudo make install`)" in error
    assert install_command.run(cli_args(uninstall=True)) == 1
    assert "`sudo python3 -m coyote_pi.commands.install --uninstall` (or `sudo make uninstall`)" in capsys.readouterr().err


def test_with_root_the_system_commands_are_printed_not_run(pi_root, monkeypatch, capsys):
    def refuse(*args, **kwargs):
        raise AssertionError("a system command was run")

    monkeypatch.setattr(subprocess, "run", refuse)
    assert install_command.run(cli_args(root=str(pi_root))) == 0
    out = capsys.readouterr().out
    assert "(not run outside the real root) $ useradd --system" in out
    assert (pi_root / "etc/systemd/system/coyote-pi.service").is_file()


def test_a_failed_dry_run_does_not_claim_steps_were_done(tmp_path, capsys):
    root = make_pi_root(tmp_path / "root")
    (root / "var/lib/dpkg/status").unlink()  # the first step fails: no dpkg database
    assert install_command.run(cli_args(root=str(root), dry_run=True)) == 1
    err = capsys.readouterr().err
    assert "no dpkg database here" in err
    assert "Dry run: nothing was changed." in err and "Steps before it are done" not in err


def test_purge_without_uninstall_is_refused(pi_root, capsys):
    assert install_command.run(cli_args(root=str(pi_root), purge=True)) == 2
    assert "--purge goes with --uninstall" in capsys.readouterr().err


def test_the_installer_runs_on_the_standard_library_alone(pi_root):
    """``python3 -S``: no site-packages at all, as on a Pi before the venv exists."""
    result = subprocess.run(
        [sys.executable, "-S", "-m", "coyote_pi.commands.install", "--dry-run", "--root", str(pi_root)],
        cwd=install.REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Dry run: 14 steps would run; nothing was changed." in result.stdout


# -- releases: installing one, and a newer one over it -------------------------------------


def make_release(repo: Path, dist: Path) -> tuple[Path, str]:
    """`make release` in ``repo`` into ``dist``: the tarball (its .sha256 checked) and what make printed."""
    made = subprocess.run(["make", "--no-print-directory", "release", f"DIST={dist}"], cwd=repo, check=True,
                          capture_output=True, text=True, timeout=120)
    tarball = dist / f"coyote-pi-{version_of(repo)}.tar.gz"
    checksum = subprocess.run(["sha256sum", "--check", tarball.name + ".sha256"], cwd=dist,
                              capture_output=True, text=True, check=False)
    assert checksum.returncode == 0, checksum.stdout + checksum.stderr
    return tarball, made.stdout


def version_of(folder: Path) -> str:
    return tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def unpack(tarball: Path, into: Path) -> Path:
    """``tar xzf`` as the Pi's owner does it; the release's folder."""
    into.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-xzf", str(tarball), "-C", str(into)], check=True)
    return into / tarball.name.removesuffix(".tar.gz")


def test_a_release_tarball_installs_without_git(tmp_path, pi_root):
    """`make release` packs HEAD and says how to copy it to a Pi; unpacked there, the
    installer runs from it (docs/raspberry-pi.md, step 3)."""
    tarball, printed = make_release(install.REPO, tmp_path / "dist")
    assert f"  scp {tarball} {tarball}.sha256 <user>@<pi's name>.local:\n" in printed
    unpacked = unpack(tarball, tmp_path)
    assert not (unpacked / ".git").exists()
    result = subprocess.run(
        [sys.executable, "-S", "-m", "coyote_pi.commands.install", "--dry-run", "--root", str(pi_root)],
        cwd=unpacked, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert f"install coyote-pi from {unpacked} into the virtual environment" in result.stdout
    assert "install the service units " + ", ".join(shipped_units()) in result.stdout


#: Runs the installer of an unpacked release, its own code on the bare python3 as on a Pi,
#: with the fake system commands: ``python3 -S -c DRIVER FAKES ROOT [--uninstall]``; prints
#: where the installer ran from and its steps.
DRIVER = """
import importlib.util, json, sys
from pathlib import Path
spec = importlib.util.spec_from_file_location("fakes", sys.argv[1])
fakes = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fakes)
from coyote_pi.pi.install import REPO, Installer
root = Path(sys.argv[2])
installer = Installer(root, fakes.FakeSystem(root), out=lambda line: None)
report = installer.uninstall() if "--uninstall" in sys.argv else installer.install()
print(json.dumps({"repo": str(REPO), "steps": [step.summary for step in report.steps]}))
"""


def install_release(folder: Path, root: Path, *options: str) -> dict:
    fakes = Path(__file__).with_name("fakes.py")
    result = subprocess.run([sys.executable, "-S", "-c", DRIVER, str(fakes), str(root), *options], cwd=folder,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def newer_release(tarball: Path, tmp_path: Path) -> Path:
    """A newer release made as a maintainer makes one: this release's tree with its version
    bumped, committed in a repository of its own, then `make release`."""
    source = unpack(tarball, tmp_path / "newer-source")
    pyproject = source / "pyproject.toml"
    old = version_of(source)
    major_minor, patch = old.rsplit(".", 1)
    pyproject.write_text(pyproject.read_text().replace(f'version = "{old}"', f'version = "{major_minor}.{int(patch) + 1}"'))
    git = ["git", "-c", "user.name=coyote-pi tests", "-c", "user.email=tests@coyote-pi.invalid"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "a newer release"]):
        subprocess.run(git + command, cwd=source, check=True, capture_output=True, timeout=120)
    return make_release(source, tmp_path / "dist-newer")[0]


def play(root: Path) -> None:
    """What an evening at the table leaves: a finished game's record, the settings taken
    from the web page, the lens's focus, an edited configuration, the page's and the
    hotspot's own state."""
    state = root / install.STATE_DIR.lstrip("/")
    table = RecordedGame.start(state / "games" / "game-0001.jsonl", GameConfig(players=3, variant="basic", start_seat=1))
    players = {seat: ScriptedPlayer() for seat in table.game.eyes}
    while (event := next_scripted_event(table.game, players, 7, physical=True)) is not None:
        table.apply(event)
    table.writer.close()
    assert table.game.winner is not None
    (state / PAGE_SETTINGS_FILE).write_text(page_settings_text({"table": {"page_seconds": 6}, "game": {"start_seat": 2}}))
    save_focus(state / "camera-focus.json", 1.59)
    config = root / install.CONFIG.lstrip("/")
    config.write_text(config.read_text().replace('[display]\n', '[display]\ndriver = "sh1106"\n', 1))
    for folder, name in (("var/lib/coyote-pi-web/requests", "preview.want"), ("var/lib/coyote-pi-hotspot", "key")):
        (root / folder).mkdir(parents=True)
        (root / folder / name).write_text("made by the running services")


def test_a_newer_release_installed_over_an_older_one_loses_nothing(tmp_path):
    """docs/raspberry-pi.md, "Updating to a newer release": install a release, play, install
    a newer release over it. Only the code in the venv is replaced (and the services
    restarted); the games, the page's settings, the focus, the edited configuration, the
    services' state and the install record stay byte for byte."""
    older_tarball, _ = make_release(install.REPO, tmp_path / "dist")
    newer_tarball = newer_release(older_tarball, tmp_path)
    older, newer = unpack(older_tarball, tmp_path / "home"), unpack(newer_tarball, tmp_path / "home")
    root = make_pi_root(tmp_path / "root")
    installed = root / install.VENV.lstrip("/") / "lib/python3/site-packages/coyote_pi-installed"

    assert install_release(older, root)["repo"] == str(older)
    assert installed.read_text() == version_of(older) + "\n"
    play(root)
    before = snapshot(root)

    update = install_release(newer, root)

    assert update == {"repo": str(newer), "steps": [f"install coyote-pi from {newer} into the virtual environment",
                                                     "restart the services with what changed"]}
    after = snapshot(root)
    changed = {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}
    assert changed == {str(installed.relative_to(root)), install.SOURCE_STAMP.lstrip("/")}
    assert installed.read_text() == version_of(newer) + "\n" != version_of(older) + "\n"
    page_settings = (root / install.STATE_DIR.lstrip("/") / PAGE_SETTINGS_FILE).read_text()
    assert with_page_settings(TableConfig(), page_settings).pacing.page_seconds == 6

    # The install record came through: uninstalling takes back what the first install added.
    removed = install_release(newer, root, "--uninstall")["steps"]
    first_added = " ".join(name for name in install.APT_PACKAGES if name != "python3-venv")  # the fake system has venv
    assert f"remove the apt packages the installer installed: {first_added}" in removed
    assert (root / install.STATE_DIR.lstrip("/") / "games/game-0001.jsonl").read_bytes() == before[
        install.STATE_DIR.lstrip("/") + "/games/game-0001.jsonl"]
