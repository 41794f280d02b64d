"""Running coyote-pi on a Raspberry Pi: the installer, the health check and systemd's notify protocol.

- :mod:`coyote_pi.pi.install`: ``sudo make install`` (standard library only: it runs
  before the virtual environment exists).
- :mod:`coyote_pi.pi.doctor`: the checks behind ``coyote-pi doctor``, one per hardware,
  config and service concern.
- :mod:`coyote_pi.pi.notify`: READY, WATCHDOG and STATUS messages to systemd.

Their command lines (``coyote-pi install`` and ``coyote-pi doctor``) are in
:mod:`coyote_pi.commands`.
"""
