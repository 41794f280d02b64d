"""The ``coyote-pi`` subcommands, one module each: argument parsing and printing only.

Each module provides ``configure(parser)`` (its arguments) and ``run(args)`` (its exit
status); :mod:`coyote_pi.cli` imports one only when it runs, so ``coyote-pi --help``
loads none of them. The work itself lives in the packages below: the rules in
:mod:`coyote_pi.engine`, the record in :mod:`coyote_pi.record`, reading cards in
:mod:`coyote_pi.vision`, the table in :mod:`coyote_pi.table` and :mod:`coyote_pi.sim`,
the measurements in :mod:`coyote_pi.bench`, the Pi's checks and set-up in
:mod:`coyote_pi.pi`. This package imports nothing, so the installer's command runs
with the system python3 and the standard library alone.
"""
