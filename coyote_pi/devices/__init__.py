"""The table's hardware behind small interfaces: seat buttons, the OLED and the camera.

Each part has real and desktop backends chosen by name in the configuration
(:mod:`coyote_pi.devices.config`) and built by :func:`coyote_pi.devices.factory.make_devices`,
so the controller runs the same code on a Pi, on a laptop and in the tests. The
simulated table's own parts (the synthetic camera, simulated faults, fingers on the
mock pins) live in :mod:`coyote_pi.sim`, which hands them to the factory ready-made.

- :mod:`~coyote_pi.devices.pinmap`: ``hardware/pinmap.toml``, loaded and checked;
  :mod:`~coyote_pi.devices.wiring` generates ``docs/wiring.md`` from it.
- :mod:`~coyote_pi.devices.events`: :class:`ButtonEvent`, what every button backend reports.
- :mod:`~coyote_pi.devices.buttons`: GPIO buttons through gpiozero (``TableButtons``),
  debounced in software, with auto-repeat and the minus+plus chord (on gpiozero's
  mock pins too); :mod:`~coyote_pi.devices.keyboard` maps keys to seat buttons.
- :mod:`~coyote_pi.devices.screen`: the ``Screen``/``SeatStatus`` model of what the OLED shows;
  :mod:`~coyote_pi.devices.render` lays it out; :mod:`~coyote_pi.devices.display` puts it
  on a luma device and survives I2C errors; :mod:`~coyote_pi.devices.outputs` records an
  animated GIF and draws frames in a terminal.
- :mod:`~coyote_pi.devices.camera`: ``capture()`` -> BGR frame from picamera2, a webcam,
  or a folder of images.

Importing this package loads nothing heavy; import the submodule you need.
"""
