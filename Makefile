# coyote-pi: `make demo` and `make test` do all the set-up on a fresh Debian-like machine.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# System libraries some Python dependencies load at run time (pyzbar needs libzbar0);
# systemd gives the tests systemd-analyze to verify the service unit; tmux lets them
# look at `run --sim` in a real terminal of a given size.
APT_PACKAGES := libzbar0 python3-venv systemd tmux
DEMO_OUT ?= demo-output

.PHONY: all demo test bench golden venv system-deps install uninstall clean

all: test

# Installs the apt packages only when one is missing, and only where apt exists.
system-deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
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

test: venv
	$(BIN)/python -m pytest -q

demo: venv
	$(BIN)/coyote-pi demo --out $(DEMO_OUT)

bench: venv
	$(BIN)/coyote-pi bench engine
	$(BIN)/coyote-pi bench vision
	$(BIN)/coyote-pi bench table

# Regenerates the golden playthrough transcripts under tests/golden/ (review the diff).
golden: venv
	$(BIN)/python -m coyote_pi.commands.golden tests/golden

# On the Raspberry Pi: `sudo make install` sets the device up, `sudo make uninstall` removes
# it (docs/raspberry-pi.md). The installer needs only the system python3, not the venv;
# INSTALL_FLAGS=--dry-run prints the steps and changes nothing.
install:
	$(PYTHON) -m coyote_pi.pi.install $(INSTALL_FLAGS)

uninstall:
	$(PYTHON) -m coyote_pi.pi.install --uninstall $(INSTALL_FLAGS)

clean:
	rm -rf $(VENV) build dist *.egg-info $(DEMO_OUT) .pytest_cache .hypothesis
