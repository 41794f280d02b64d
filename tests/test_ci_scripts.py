"""The pure parts of the CI scripts: `make test-arm64`'s cache key and game comparison, the wheel check's tags."""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import re
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

CI = Path(__file__).resolve().parents[1] / "ci"


def script(name: str) -> ModuleType:
    """A script of ci/ (no .py suffix) as a module, without running its main."""
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"), str(CI / name))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    sys.modules[loader.name] = module  # dataclasses look their module up there
    loader.exec_module(module)
    return module


arm64 = script("test-arm64")
wheels = script("check-aarch64-wheels")


def record_line(kind: str, seq: int, time: str, **fields) -> str:
    return json.dumps({"kind": kind, "seq": seq, "time": time, "hash": f"h{seq}{time}", "prev": None, **fields})


def test_the_games_compare_without_times_hashes_salts_photos_and_notes(tmp_path):
    x86, arm = tmp_path / "x86.jsonl", tmp_path / "arm.jsonl"
    x86.write_text("\n".join([
        record_line("setup", 0, "a", config={"players": 2}),
        record_line("note", 1, "a", note={"wait": "deal"}),
        record_line("observation", 2, "a", event={"type": "deal", "commitment": "c1"}, photo=None),
        record_line("action", 3, "a", event={"type": "bid", "seat": 2, "amount": 7}),
    ]) + "\n")
    arm.write_text("\n".join([
        record_line("setup", 0, "b", config={"players": 2}),
        record_line("observation", 1, "b", event={"type": "deal", "commitment": "c2"}, photo={"sha256": "x"}),
        record_line("note", 2, "b", note={"wait": "deal", "problems": []}),
        record_line("action", 3, "b", event={"type": "bid", "seat": 2, "amount": 7}),
    ]) + "\n")
    assert arm64.compare_games(x86, arm) is None
    arm.write_text(arm.read_text().replace('"amount": 7', '"amount": 8'))
    assert arm64.compare_games(x86, arm).startswith("game line 3 differs:")


def test_the_rootfs_is_rebuilt_only_when_what_goes_into_it_changes(monkeypatch):
    key = arm64.rootfs_key("bookworm")
    assert arm64.rootfs_key("bookworm") == key and arm64.rootfs_key("trixie") != key
    monkeypatch.setattr(arm64, "ROOTFS_PACKAGES", (*arm64.ROOTFS_PACKAGES, "tmux"))
    assert arm64.rootfs_key("bookworm") != key
    assert arm64.rootfs_tarball("bookworm").name.startswith("rootfs-bookworm-arm64-")


def test_boards_name_their_processors():
    assert arm64.BOARDS == {"pi4": "cortex-a72", "pi5": "cortex-a76", "zero2w": "cortex-a53"}


@pytest.mark.parametrize(("release", "newest"), [("bookworm", "manylinux_2_36_aarch64"),
                                                 ("trixie", "manylinux_2_41_aarch64")])
def test_the_wheel_check_accepts_every_manylinux_tag_of_the_releases_glibc(release, newest):
    tags = wheels.platforms(release)
    assert tags[0] == newest and "manylinux_2_17_aarch64" in tags and tags[-1] == "manylinux2014_aarch64"


def test_the_wheel_check_reads_the_pins_and_the_python_of_a_constraints_file(tmp_path):
    constraints = tmp_path / "bookworm.txt"
    constraints.write_text("# python: 3.11\n# a comment\nnumpy==1.24.2\nluma.oled==3.16.0\n")
    assert wheels.python_of(constraints) == "3.11"
    assert wheels.pins(constraints) == ["numpy==1.24.2", "luma.oled==3.16.0"]


# -- make test-boot (ci/test-boot) ----------------------------------------------------------

boot = script("test-boot")


def chained(count: int) -> list[bytes]:
    """``count`` record lines, each chained to the one before as a record's are."""
    lines, previous = [], None
    for seq in range(count):
        line = json.dumps({"kind": "action", "prev": previous, "seq": seq}, sort_keys=True).encode()
        lines.append(line)
        previous = hashlib.sha256(line).hexdigest()
    return lines


def ack_log(name: str, lines: list[bytes]) -> str:
    """The console as the journal forwards the table's acknowledgements, with the kernel's noise between."""
    return "".join(f"[  {seq}.5] coyote-pi[231]: record {name} seq {seq} on disk: sha256 "
                   f"{hashlib.sha256(line).hexdigest()}\n[  {seq}.6] random: crng init done\n"
                   for seq, line in enumerate(lines))


def test_the_acknowledgements_are_read_as_the_table_logs_them(caplog, tmp_path):
    import logging

    from coyote_pi.engine import GameConfig
    from coyote_pi.record import RecordedGame

    caplog.set_level(logging.INFO, logger="coyote_pi.record.writer")
    RecordedGame.start(tmp_path / "game-0007.jsonl", GameConfig(players=2))
    line = (tmp_path / "game-0007.jsonl").read_bytes().rstrip(b"\n")
    assert boot.acknowledged(caplog.text) == [boot.Ack("game-0007.jsonl", 0, hashlib.sha256(line).hexdigest())]


def test_every_acknowledged_line_on_disk_byte_for_byte_passes():
    lines = chained(5)
    verdict = boot.check_acknowledged(boot.acknowledged(ack_log("game-0001.jsonl", lines[:4])),
                                      {"game-0001.jsonl": b"\n".join(lines) + b"\n"})
    assert verdict.problems == [] and verdict.acknowledged == 4 and verdict.unacknowledged == 1


def test_an_unacknowledged_line_may_be_missing_or_unfinished_but_not_corrupt():
    lines = chained(5)
    acks = boot.acknowledged(ack_log("game-0001.jsonl", lines[:3]))
    unfinished = b"\n".join(lines[:4]) + b"\n" + lines[4][:10]
    verdict = boot.check_acknowledged(acks, {"game-0001.jsonl": unfinished})
    assert verdict.problems == [] and verdict.torn == ["game-0001.jsonl"]
    assert boot.check_acknowledged(acks, {"game-0001.jsonl": b"\n".join(lines[:3]) + b"\n"}).problems == []
    corrupt = b"\n".join(lines[:3]) + b'\n{"seq": 3, "prev": "0000"}\n'
    assert boot.check_acknowledged(acks, {"game-0001.jsonl": corrupt}).problems == [
        "CORRUPT: game-0001.jsonl line 4 does not chain to the line before"]
    assert boot.check_acknowledged(acks, {"game-0001.jsonl": b"\n".join(lines[:3]) + b"\n\0\0\0\n"}).problems == [
        "CORRUPT: game-0001.jsonl line 4 is not JSON"]


def test_an_acknowledged_line_lost_changed_or_unfinished_fails():
    lines = chained(4)
    acks = boot.acknowledged(ack_log("game-0001.jsonl", lines))
    assert boot.check_acknowledged(acks, {"game-0001.jsonl": b"\n".join(lines[:3]) + b"\n"}).problems == [
        "LOST: game-0001.jsonl seq 3 was acknowledged; the record has 3 lines"]
    assert boot.check_acknowledged(acks, {"game-0001.jsonl": b"\n".join(lines) + b"\n"[:0]}).problems == [
        "LOST: game-0001.jsonl seq 3 was acknowledged; the record has 3 lines"]  # no newline: unfinished
    changed = lines[:3] + [lines[3].replace(b'"action"', b'"actiom"')]
    assert boot.check_acknowledged(acks, {"game-0001.jsonl": b"\n".join(changed) + b"\n"}).problems == [
        "CHANGED: game-0001.jsonl seq 3 is not the line acknowledged"]
    assert boot.check_acknowledged(acks, {}).problems[0] == (
        "LOST: game-0001.jsonl is gone, yet its line seq 0 was acknowledged")
    again = acks + [boot.Ack("game-0001.jsonl", 2, "0" * 64)]
    assert "game-0001.jsonl seq 2 was acknowledged twice with different bytes" in boot.check_acknowledged(
        again, {"game-0001.jsonl": b"\n".join(lines) + b"\n"}).problems


def test_the_cuts_come_at_seeded_random_moments():
    cuts = boot.cut_schedule(34, 20)
    assert cuts == boot.cut_schedule(34, 20) and cuts != boot.cut_schedule(35, 20)
    assert [cut.number for cut in cuts] == list(range(1, 21))
    assert all(2 <= cut.after <= 45 for cut in cuts) and len({cut.after for cut in cuts}) == 20


def started(saved: str | None = None) -> str:
    return f"\n{boot.QEMU_STARTS} 23:01:02{f' from saved {saved}' if saved else ''}\n"


def test_each_machine_started_from_a_save_is_judged_by_what_its_own_disk_lived_through():
    lines = chained(6)
    other = [line.replace(b'"action"', b'"actiom"') for line in chained(6)]  # another timeline's bytes
    booted = started() + ack_log("game-0001.jsonl", lines[:3])
    first = started("before-cut-1") + ack_log("game-0001.jsonl", other[:5])[len(ack_log("game-0001.jsonl", other[:3])):]
    second = started("before-cut-1") + ack_log("game-0001.jsonl", lines[:4])[len(ack_log("game-0001.jsonl", lines[:3])):]
    console = booted + f"\n{boot.MACHINE_SAVED} before-cut-1\n" + first + second
    acks = boot.acknowledged(boot.timeline(console))
    assert [ack.seq for ack in acks] == [0, 1, 2, 3]  # the first restore's 3 and 4 are not on this disk
    assert boot.check_acknowledged(acks, {"game-0001.jsonl": b"\n".join(lines[:4]) + b"\n"}).problems == []
    # A boot after a cut goes on with that cut's disk; a later save starts from there.
    after_boot = started() + "resumed\n" + f"\n{boot.MACHINE_SAVED} before-cut-6\n" + started("before-cut-6") + "sixth\n"
    later = boot.timeline(console + after_boot)
    assert "resumed" in later and "sixth" in later and "actiom" not in later
    assert boot.timeline(booted) == booted  # no save: the whole log
    with pytest.raises(ValueError, match="no such save"):
        boot.timeline(booted + started("never"))


def test_the_boot_image_is_rebuilt_when_its_rootfs_or_the_tests_own_files_change(monkeypatch):
    tarball = arm64.rootfs_tarball("trixie", boot.BOOT_PACKAGES, "boot")
    assert tarball.name.startswith("boot-trixie-arm64-") and tarball != arm64.rootfs_tarball("trixie")
    key = boot.image_key(tarball)
    assert boot.image_key(arm64.rootfs_tarball("bookworm", boot.BOOT_PACKAGES, "boot")) != key
    monkeypatch.setitem(boot.GUEST_FILES, "etc/hostname", (0o644, "other\n"))
    assert boot.image_key(tarball) != key


def test_the_boot_rootfs_gets_a_small_initramfs_and_its_own_key(tmp_path):
    import subprocess

    # Without hooks test-arm64's key is as before (its cached rootfs stays valid).
    assert arm64.rootfs_key("bookworm", None, ()) == arm64.rootfs_key("bookworm")
    hooked = arm64.rootfs_tarball("trixie", boot.BOOT_PACKAGES, "boot", (boot.INITRAMFS_HOOK,))
    assert hooked != arm64.rootfs_tarball("trixie", boot.BOOT_PACKAGES, "boot")
    # mmdebstrap runs a hook as `sh -c HOOK exec ROOTFS`.
    subprocess.run(["sh", "-c", boot.INITRAMFS_HOOK, "exec", str(tmp_path)], check=True)
    assert (tmp_path / "etc/initramfs-tools/conf.d/coyote-test.conf").read_text() == "MODULES=list\n"
    listed = (tmp_path / "usr/share/initramfs-tools/modules.d/coyote-test").read_text().split()
    assert {"virtio_blk", "virtio_pci", "ext4"} <= set(listed) and len(listed) < 10


def test_the_machine_is_reached_only_from_this_host_and_boots_the_boards_core(tmp_path):
    command = boot.qemu_command(cpu="cortex-a53", memory=512, kernel=tmp_path / "k", initrd=tmp_path / "i",
                                image=tmp_path / "r", payload=tmp_path / "p", console=tmp_path / "c",
                                control=tmp_path / "s", port=8123, monitor=tmp_path / "m", tree=tmp_path / "t")
    text = " ".join(command)
    assert command[command.index("-cpu") + 1] == "cortex-a53" and command[command.index("-smp") + 1] == "2"
    assert "-enable-kvm" not in command and "-no-reboot" in command
    forwards = re.findall(r"hostfwd=([^,\s]+)", text)
    assert forwards == [f"tcp:127.0.0.1:8123-:{boot.PAGE_PORT}"]  # the page's port, on loopback only
    assert f"path={tmp_path / 'c'},append=on" in text  # the console outlives every boot on the host
    assert "-incoming" not in command and f"unix:{tmp_path / 'm'},server=on,wait=off" in command
    again = boot.qemu_command(cpu="cortex-a53", memory=512, kernel=tmp_path / "k", initrd=tmp_path / "i",
                              image=tmp_path / "r", payload=tmp_path / "p", console=tmp_path / "c",
                              control=tmp_path / "s", port=8123, monitor=tmp_path / "m", tree=tmp_path / "t",
                              saved=tmp_path / "saved m")
    assert again[again.index("-incoming") + 1] == f"exec:cat '{tmp_path / 'saved m'}'"  # qemu runs it with sh
    assert again[:-2] == command  # the same machine: a saved one goes on only in its like
    assert command[command.index("-dtb") + 1] == str(tmp_path / "t")  # the board's model (board_tree)


def test_the_doctor_must_see_the_board_and_fail_each_missing_part_saying_what_to_do():
    model = boot.BOARD_MODELS["zero2w"]
    said = "\n".join([
        f"PASS  board          {model}",
        "FAIL  config.txt     no /boot/firmware/config.txt: is this Raspberry Pi OS? See docs/raspberry-pi.md",
        "FAIL  I2C bus        no /dev/i2c-1: enable I2C (dtparam=i2c_arm=on in config.txt), reboot",
        "SKIP  OLED           needs the I2C bus (/dev/i2c-1)",
        "FAIL  camera         No module named 'picamera2' (sudo apt install python3-picamera2)",
        "PASS  GPIO chip      gpiochip0",
        "FAIL  button pins    no GPIO backend (Unable to load any default pin factory!): sudo apt install python3-lgpio",
        "Summary: 1 pass, 5 fail, 0 skip"])
    assert boot.doctor_problems(said, model) == []
    assert boot.doctor_problems(said, boot.BOARD_MODELS["pi4"]) == [f"doctor's board line: ('PASS', {model!r})"]
    skipped = said.replace("FAIL  camera ", "SKIP  camera ")
    assert boot.doctor_problems(skipped, model) == [
        "doctor's camera line: SKIP \"No module named 'picamera2' (sudo apt install python3-picamera2)\", "
        "not a failure that says what to do"]
    assert boot.doctor_problems(said + "\nSKIP  service        not a Raspberry Pi", model) == [
        "doctor's service line: 'not a Raspberry Pi'"]
    assert len(boot.doctor_problems("SKIP  board          not a Raspberry Pi", model)) == 4


def test_the_tests_drop_in_only_points_the_unit_at_its_configuration():
    lines = [line for line in boot.TEST_DROP_IN.splitlines() if line.strip()]
    assert lines == ["[Service]", "ExecStart=",
                     "ExecStart=/opt/coyote-pi/venv/bin/coyote-pi run --config /etc/coyote-pi/test-boot.toml"]
    unit = (CI.parent / "systemd" / "coyote-pi.service").read_text()
    assert "ExecStart=/opt/coyote-pi/venv/bin/coyote-pi run --config /etc/coyote-pi/config.toml" in unit


def test_only_the_hotspot_without_networkmanager_may_fail_on_the_booted_image():
    listing = ("coyote-pi-hotspot.service loaded failed failed coyote-pi Wi-Fi hotspot when no known Wi-Fi is in reach\n"
               "systemd-networkd-wait-online.service loaded failed failed Wait for Network to be Configured\n")
    said = "coyote-pi hotspot: no hotspot: nmcli not found: NetworkManager (...) is not installed\n"
    assert boot.unexpected_failures(listing, said) == ["systemd-networkd-wait-online.service"]
    assert boot.unexpected_failures(listing, "coyote-pi hotspot: no hotspot: nmcli refused\n") == [
        "coyote-pi-hotspot.service", "systemd-networkd-wait-online.service"]
    assert boot.unexpected_failures("", "") == []
    # The words the test looks for are the command's own.
    assert '"nmcli not found: ' in (CI.parent / "coyote_pi" / "pi" / "hotspot.py").read_text()
    assert 'no hotspot: {error}' in (CI.parent / "coyote_pi" / "commands" / "hotspot.py").read_text()


def test_a_denial_is_told_from_systemds_banner():
    # The first booted run took systemd's banner ("+SECCOMP" among its features) for a denial.
    banner = ("systemd 252.39-1~deb12u2 running in system mode (+PAM +AUDIT +SELINUX +APPARMOR +IMA +SMACK "
              "+SECCOMP +GCRYPT -GNUTLS)\n-- No entries --\n")
    assert boot.denials(banner) == []
    seccomp = ('audit: type=1326 audit(1.2:3): auid=4294967295 uid=997 comm="python3" syscall=167 code=0x0\n')
    refused = "coyote-pi run: cannot write /etc/coyote-pi/x: [Errno 30] Read-only file system\n"
    assert boot.denials(banner + seccomp + refused) == [seccomp.strip(), refused.strip()]


def test_the_test_reads_the_pin_where_its_table_leaves_it():
    from coyote_pi.config import load_config
    from coyote_pi.sim.rig import TEST_PIN_FILE

    config = load_config(boot.TEST_CONFIG)
    assert config.web.enabled
    assert Path(boot.TEST_PIN_FILE) == config.record_dir.parent / TEST_PIN_FILE
    # The line the test waits for, as tests/table/test_web_side.py sees the table log it.
    assert boot.PIN_ASKED == "presses ok: a new PIN for the web page"


def test_after_a_reboot_the_same_game_must_go_on():
    last = boot.Ack("game-0002.jsonl", 13, "a" * 64)
    assert boot.goes_on([last, boot.Ack("game-0002.jsonl", 14, "b" * 64)], last)
    assert not boot.goes_on([last], last)  # nothing after it
    assert not boot.goes_on([last, boot.Ack("game-0003.jsonl", 1, "c" * 64)], last)  # another game


def test_the_console_is_read_from_the_machines_last_start():
    log = f"old boot: x\n{boot.QEMU_STARTS} 10:00:00\nfirst: x\n{boot.QEMU_STARTS} 10:05:00\nsecond\n"
    assert boot.since_last_start(log) == f"{boot.QEMU_STARTS} 10:05:00\nsecond\n"
    assert boot.since_last_start("no start marked\n") == "no start marked\n"


def test_the_machine_answers_each_command_with_its_output_and_status(tmp_path):
    """The host's side of the agent's protocol: one line out, the output and "@@rc N" back,
    even when an answer arrives in pieces."""
    import socket
    import threading

    control = tmp_path / "control.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(control))
    server.listen(1)
    heard = []

    def agent() -> None:
        connection, _ = server.accept()
        with connection, connection.makefile("rb") as commands:
            for command in commands:
                heard.append(command.decode())
                for piece in (b"line one\nline ", b"two\n@@r", b"c 3\n"):
                    connection.sendall(piece)

    threading.Thread(target=agent, daemon=True).start()
    machine = running_machine(tmp_path, control)
    try:
        assert machine.run("echo 'a b'") == (3, "line one\nline two\n")
        assert machine.run("true") == (3, "line one\nline two\n")
        assert heard == ["echo 'a b'\n", "true\n"]
    finally:
        machine.kill()
        server.close()


def running_machine(tmp_path, control=None):
    """A Machine whose qemu is a stand-in process (its sockets are the test's)."""
    import subprocess

    machine = boot.Machine(["qemu"], control or tmp_path / "control.sock", tmp_path / "console.log",
                           tmp_path / "monitor.sock")
    machine.process = subprocess.Popen(["sleep", "30"])
    return machine


def fake_qemu_monitor(monitor, statuses: list[str]) -> list[dict]:
    """A QMP server as qemu speaks it: a greeting, events between the answers, and the
    migration's ``statuses`` one per query; returns the commands it is asked, as they come."""
    import socket
    import threading

    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(monitor))
    server.listen(1)
    asked: list[dict] = []

    def qemu() -> None:
        connection, _ = server.accept()
        with server, connection, connection.makefile("rb") as commands:
            connection.sendall(b'{"QMP": {"version": {}, "capabilities": []}}\r\n')
            status = iter(statuses)
            for line in commands:
                command = json.loads(line)
                asked.append(command)
                answer = {"status": next(status)} if command["execute"].startswith("query-") else {}
                if command["execute"] == "stop":
                    connection.sendall(b'{"event": "STOP", "timestamp": {}}\r\n')
                connection.sendall(json.dumps({"return": answer}).encode() + b"\r\n")

    threading.Thread(target=qemu, daemon=True).start()
    return asked


def test_the_machine_is_saved_through_qemus_monitor_then_ended_and_the_log_marked(tmp_path):
    """The machine is stopped before its state is written, the migration is waited for,
    and qemu ends: the saved machine goes on only from its file."""
    asked = fake_qemu_monitor(tmp_path / "monitor.sock", ["setup", "active", "completed"])
    console = tmp_path / "console.log"
    machine = running_machine(tmp_path)
    machine.save(tmp_path / "saved", "before-cut-1", minutes=1)
    names = [command["execute"] for command in asked]
    assert names == ["qmp_capabilities", "stop", "migrate-set-parameters", "migrate", *["query-migrate"] * 3]
    assert asked[3]["arguments"] == {"uri": f"exec:cat > {tmp_path / 'saved'}"}
    assert machine.process.returncode is not None
    assert console.read_text().endswith(f"\n{boot.MACHINE_SAVED} before-cut-1\n")


def test_a_machine_started_from_its_save_is_let_run_once_read(tmp_path):
    """It was saved stopped, so qemu leaves it paused after reading the save: `cont`."""
    asked = fake_qemu_monitor(tmp_path / "monitor.sock", ["inmigrate", "inmigrate", "paused"])
    machine = running_machine(tmp_path)
    try:
        machine.go_on(minutes=1)
    finally:
        machine.kill()
    assert [command["execute"] for command in asked] == ["qmp_capabilities", *["query-status"] * 3, "cont"]


def test_a_save_that_fails_stops_the_run_and_marks_nothing(tmp_path):
    fake_qemu_monitor(tmp_path / "monitor.sock", ["active", "failed"])
    console = tmp_path / "console.log"
    machine = running_machine(tmp_path)
    try:
        with pytest.raises(boot.Stuck, match="could not save the machine: migration failed"):
            machine.save(tmp_path / "saved", "before-cut-1", minutes=1)
    finally:
        machine.kill()
    assert not console.exists()


def test_the_kernel_is_unpacked_for_qemu_whether_gzipped_or_an_efi_zboot_image():
    import gzip
    import struct

    image = b"ARM64 Image" + bytes(100)
    assert boot.plain_kernel(image) == image
    assert boot.plain_kernel(gzip.compress(image)) == image
    payload = gzip.compress(image)
    header = b"MZ\0\0zimg" + struct.pack("<II", 64, len(payload)) + bytes(8) + b"gzip\0\0\0\0"
    assert boot.plain_kernel(header.ljust(64, b"\0") + payload + b"signature") == image


def test_the_pages_are_fetched_once_the_server_listens_but_an_error_answer_fails_at_once():
    import http.server
    import threading
    import urllib.error

    port = boot.free_port()

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200 if self.path != "/missing" else 404)
            self.end_headers()
            self.wfile.write(b"page")

        def log_message(self, *_: object) -> None:
            pass

    def listen_late() -> None:
        time.sleep(0.5)  # as uvicorn, loading after its unit is active
        with http.server.HTTPServer(("127.0.0.1", port), Page) as server:
            server.serve_forever()

    threading.Thread(target=listen_late, daemon=True).start()
    assert boot.fetch_pages(port, ("/", "/history"), minutes=0.5, every=0.2) == "/ 200 (4 bytes), /history 200 (4 bytes)"
    with pytest.raises(urllib.error.HTTPError):
        boot.fetch_pages(port, ("/missing",), minutes=0.5, every=0.2)


def test_each_photo_a_record_line_names_must_be_on_disk_public_or_private(tmp_path):
    photo = b"\xff\xd8 a frame"
    named = {"file": "round-01-reveal.jpg", "sha256": hashlib.sha256(photo).hexdigest()}
    lines = [json.dumps({"seq": 0, "photo": None}), json.dumps({"seq": 1, "photo": named})]
    (tmp_path / "game-0001.jsonl").write_text("\n".join(lines) + "\n" + '{"seq": 2, "pho')  # a torn tail
    (tmp_path / "private" / "game-0001.photos").mkdir(parents=True)
    (tmp_path / "private" / "game-0001.photos" / "round-01-reveal.jpg").write_bytes(photo)  # round still open
    assert boot.photo_problems(tmp_path) == (1, [])
    (tmp_path / "game-0001.photos").mkdir()
    (tmp_path / "private" / "game-0001.photos" / "round-01-reveal.jpg").rename(
        tmp_path / "game-0001.photos" / "round-01-reveal.jpg")  # the round closed
    assert boot.photo_problems(tmp_path) == (1, [])
    (tmp_path / "game-0001.photos" / "round-01-reveal.jpg").write_bytes(photo[:4])
    assert boot.photo_problems(tmp_path) == (
        1, ["PHOTO: game-0001.jsonl line 2 names round-01-reveal.jpg, whose bytes differ"])
    (tmp_path / "game-0001.photos" / "round-01-reveal.jpg").unlink()
    assert boot.photo_problems(tmp_path) == (
        1, ["PHOTO: game-0001.jsonl line 2 names round-01-reveal.jpg, which is not on disk"])
