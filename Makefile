# coyote-pi: `make demo` and `make test` do all the set-up on a fresh Debian-like machine.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# System libraries some Python dependencies load at run time (pyzbar needs libzbar0);
# systemd gives the tests systemd-analyze to verify the service unit; tmux lets them
# look at `run --sim` in a real terminal of a given size; chromium and its driver let them
# drive the web page in a real browser (Selenium, never a browser of its own).
APT_PACKAGES := libzbar0 python3-venv systemd tmux chromium chromium-driver espeak-ng alsa-utils
DEMO_OUT ?= demo-output
# The demo serves the table's web page here while it plays, and saves screenshots of it.
DEMO_WEB ?= 127.0.0.1:8080

# The Raspberry Pi OS releases `make test-pi-os` tests against, each in its own venv
# (.venv-RELEASE) made with that release's Python and library versions: the pip
# constraints coyote_pi/pi/constraints/RELEASE.txt, the same file the installer uses on
# such a Pi. Its "# python: X.Y" line names the Python; ci/find-python finds it.
PI_OS_RELEASES := bookworm trixie
PI_CONSTRAINTS := coyote_pi/pi/constraints
PI_OS_VENVS    := $(PI_OS_RELEASES:%=.venv-%)
# The tests that meet numpy, Pillow, OpenCV, luma or gpiozero most directly (devices,
# vision with one chunk of each sweep, the controller, the renderer and camera of the
# simulation), the web page's tests but the browser ones (it runs on the release's
# Python), strict JSON (how deep Python's json nests differs by release), and the demo
# below, which plays a whole game through all of them: the whole CI (`make test` first)
# stays within 30 minutes on 2 cores.
PI_OS_TESTS ?= tests/devices tests/vision tests/web tests/sim/test_render.py tests/sim/test_camera.py \
               tests/table/test_controller.py tests/table/test_web_side.py tests/pi/test_pi_doctor.py \
               tests/test_cli.py tests/test_json_text.py tests/test_memory.py tests/test_packaging.py \
               -k "(not test_sweep or [0]) and not test_browser"

.PHONY: all demo test check test-pi-os test-arm64 test-boot release bench golden hardware messages venv system-deps install uninstall clean

all: test

# Installs the apt packages only when one is missing, and only where apt exists. A package
# that provides the name counts (on Trixie, libzbar0t64 provides libzbar0).
system-deps:
	@missing=""; provided=" $$(dpkg-query -W -f '$${Provides}, ' 2>/dev/null | sed 's/ ([^)]*)//g') "; \
	for p in $(APT_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || case "$$provided" in *" $$p,"*) ;; *) missing="$$missing $$p";; esac; \
	done; \
	if [ -n "$$missing" ]; then \
	  if command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing system packages:$$missing"; \
	    SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	    $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	  else \
	    echo "warning: not a Debian-like system; please install:$$missing" >&2; \
	  fi; \
	fi

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)

# The stamp re-installs when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

venv: system-deps $(VENV)/.installed

# The suite spread over the machine's cores (pytest-xdist), a worker a process; a module whose
# tests share one costly fixture is marked as one xdist_group, so that only one worker makes it.
test: venv
	$(BIN)/python -m pytest -q -n auto --dist loadgroup

# Types and lint, with the settings in pyproject.toml ([tool.mypy], [tool.ruff]).
check: venv
	$(BIN)/ruff check coyote_pi tests
	$(BIN)/mypy

# A release's venv: made afresh whenever its constraints or pyproject.toml change.
.venv-%/.installed: pyproject.toml $(PI_CONSTRAINTS)/%.txt
	rm -rf .venv-$*
	python=$$(ci/find-python "$$(sed -n 's/^# python: *//p' $(PI_CONSTRAINTS)/$*.txt)") && "$$python" -m venv .venv-$*
	.venv-$*/bin/pip install --quiet --upgrade pip
	.venv-$*/bin/pip install --quiet --constraint $(PI_CONSTRAINTS)/$*.txt -e '.[test]'
	touch $@

# The tests and the demo with the libraries of each supported Raspberry Pi OS release;
# every release runs even when one fails, and the target fails if any did.
test-pi-os: system-deps $(PI_OS_VENVS:%=%/.installed)
	@failed=""; for venv in $(PI_OS_VENVS); do \
	  echo "== $$venv: $$($$venv/bin/python -c 'import sys, numpy, PIL, cv2; print("Python", sys.version.split()[0], "numpy", numpy.__version__, "Pillow", PIL.__version__, "OpenCV", cv2.__version__)')"; \
	  $$venv/bin/python -m pytest -q -n auto --dist loadgroup $(PI_OS_TESTS) || failed="$$failed $$venv(tests)"; \
	  if $$venv/bin/coyote-pi demo --out $$venv/demo > $$venv/demo.log 2>&1; then \
	    echo "coyote-pi demo: $$(grep -m 1 ' wins after ' $$venv/demo.log)"; \
	  else \
	    tail -n 30 $$venv/demo.log; echo "coyote-pi demo failed in $$venv (whole log: $$venv/demo.log)"; \
	    failed="$$failed $$venv(demo)"; \
	  fi; \
	done; \
	if [ -n "$$failed" ]; then echo "make test-pi-os failed in:$$failed"; exit 1; fi

# The project on an arm64 Debian userland under qemu-user (as root; docs/raspberry-pi.md):
# the release's rootfs (cached outside the checkout), the real installer, an arm64 slice of
# the tests and a demo that must play the x86 game line for line. Not part of `make test`
# or CI (a first run builds the rootfs: 5-10 minutes, more on a busy machine); run it before an ARM change.
RELEASE ?= bookworm
BOARD   ?= pi4
test-arm64: venv
	ci/test-arm64 --release $(RELEASE) --board $(BOARD)

# The release booted: installed on an arm64 Debian under qemu-system, its units and their
# sandbox, the table playing, the watchdog, a reboot and pulled plugs (docs/raspberry-pi.md,
# "Testing a booted system"). Root, as test-arm64; hours on 2 cores, not part of `make test`.
test-boot: venv
	ci/test-boot --release $(RELEASE) --board $(BOARD)

demo: venv
	$(BIN)/coyote-pi demo --out $(DEMO_OUT) --web $(DEMO_WEB)

bench: venv
	$(BIN)/coyote-pi bench engine
	$(BIN)/coyote-pi bench vision
	$(BIN)/coyote-pi bench table
	$(BIN)/coyote-pi bench soak

# Regenerates the golden playthrough transcripts under tests/golden/ (review the diff).
golden: venv
	$(BIN)/python -m coyote_pi.commands.golden tests/golden

# The printable parts (hardware/README.md): hardware/scad/params.scad from markers.toml, then
# every part's STL file and preview with OpenSCAD, which only this target installs (the
# tests check the committed files without it). Not part of `make test` or CI: about two
# minutes. Commit what it changed.
hardware: APT_PACKAGES += openscad
hardware: venv
	$(BIN)/python -m coyote_pi.commands.hardware

# The texts (docs/translating.md): the keys the code and the templates ask for, as Babel
# extracts them, into build/messages.pot (each with where it is used; tests/test_locale.py
# extracts with the same keywords); a new language's starting point, build/coyote_pi.pot;
# and every catalog compiled as the package compiles it when it loads it, with how much
# of it is translated.
messages: venv
	mkdir -p build
	$(BIN)/pybabel extract -F babel.cfg -k tr -k texts -k plural -k for_seats -k ngettext:1,2 -o build/messages.pot .
	$(BIN)/python -c 'import sys; from babel.messages.pofile import write_po; from coyote_pi.locale import template; \
	  write_po(sys.stdout.buffer, template(), width=100)' > build/coyote_pi.pot
	for po in coyote_pi/locale/*/LC_MESSAGES/coyote_pi.po; do \
	  language=$$(basename $$(dirname $$(dirname $$po))); \
	  $(BIN)/pybabel compile --statistics -l $$language -i $$po -o /dev/null || exit 1; \
	done

# A release for Pi owners (docs/raspberry-pi.md, step 3): the committed tree at HEAD as
# dist/coyote-pi-VERSION.tar.gz (VERSION from pyproject.toml), with its SHA-256 beside it,
# and the command that copies both to a Pi. Unpacked on a Pi, the installer runs from it; no git.
DIST    ?= dist
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
# The public page Pi owners download releases from: none yet. Whoever publishes the project
# writes its address here and on the "Releases page:" line of docs/raspberry-pi.md (a test
# holds the two together); `make release` then says to publish there.
RELEASES_PAGE :=
release:
	@git diff --quiet HEAD -- || echo "note: uncommitted changes are not in the release (it is HEAD)"
	mkdir -p $(DIST)
	git archive --format=tar.gz --prefix=coyote-pi-$(VERSION)/ -o $(DIST)/coyote-pi-$(VERSION).tar.gz HEAD
	cd $(DIST) && sha256sum coyote-pi-$(VERSION).tar.gz > coyote-pi-$(VERSION).tar.gz.sha256
	@echo "$(DIST)/coyote-pi-$(VERSION).tar.gz and its .sha256 are ready. To copy both to the Pi (docs/raspberry-pi.md, step 3):"
	@echo "  scp $(DIST)/coyote-pi-$(VERSION).tar.gz $(DIST)/coyote-pi-$(VERSION).tar.gz.sha256 <user>@<pi's name>.local:"
	@$(if $(RELEASES_PAGE),echo "To publish the release: put both on $(RELEASES_PAGE)",true)

# On the Raspberry Pi: `sudo make install` sets the device up, `sudo make uninstall` removes
# it (docs/raspberry-pi.md). Shortcuts only: the installer needs just the system python3 (no
# venv, and no make: `sudo python3 -m coyote_pi.commands.install` is the same);
# INSTALL_FLAGS=--dry-run prints the steps and changes nothing.
install:
	$(PYTHON) -m coyote_pi.commands.install $(INSTALL_FLAGS)

uninstall:
	$(PYTHON) -m coyote_pi.commands.install --uninstall $(INSTALL_FLAGS)

clean:
	rm -rf $(VENV) $(PI_OS_VENVS) build dist *.egg-info $(DEMO_OUT) .pytest_cache .hypothesis
