"""coyote-pi: a Raspberry Pi arbiter for the bluffing card game Coyote.

The package is layered so that each part can be used and tested alone:

- :mod:`coyote_pi.cards` and :mod:`coyote_pi.engine`: the pure rules (no I/O, no clock).
- :mod:`coyote_pi.record`: the durable, hash-chained game record.
- :mod:`coyote_pi.vision`: reading marked cards from camera frames.
- :mod:`coyote_pi.devices`: buttons, display and camera behind swappable backends.
- :mod:`coyote_pi.config` and :mod:`coyote_pi.words`: the table's configuration and its
  words, which the web page reads too.
- :mod:`coyote_pi.table`: the controller that runs a real game on those devices.
- :mod:`coyote_pi.sim`: the simulated table (the demo, ``run --sim``, the tests); the real
  table never loads it.
- :mod:`coyote_pi.bench`: the measurements behind ``coyote-pi bench``.
- :mod:`coyote_pi.cli` and :mod:`coyote_pi.commands`: the ``coyote-pi`` command, one
  module per subcommand (argument parsing and printing only).
- :mod:`coyote_pi.pi`: the Raspberry Pi's installer, health check and systemd glue.
"""

__version__ = "0.1.0"
