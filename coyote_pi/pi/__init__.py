"""Running coyote-pi on a Raspberry Pi: the installer, the health check and systemd's notify protocol.

- :mod:`coyote_pi.pi.install`: ``sudo make install`` (standard library only: it runs
  before the virtual environment exists).
- :mod:`coyote_pi.pi.doctor`: ``coyote-pi doctor``, one line per hardware, config and
  service check.
- :mod:`coyote_pi.pi.notify`: READY, WATCHDOG and STATUS messages to systemd.
"""
