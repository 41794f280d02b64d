"""The measurements behind ``coyote-pi bench``: engine, vision and table speed and memory.

Each module measures and returns figures; :mod:`coyote_pi.commands.bench` prints them
beside their targets. The vision and table figures are taken on the simulated table
(:mod:`coyote_pi.sim`), so this package sits above it.
"""
