"""The simulated table: everything that stands in for cards, hands, fingers and hardware.

The real table never imports this package (a test checks it); the demo, ``run --sim``,
the benchmarks and the tests build their tables from it, the way gpiozero keeps its
mock pins apart from the real ones.

- :mod:`~coyote_pi.sim.scene`: what lies on the table (:class:`TableScene`), how the
  camera sees it (:class:`Conditions`), and the truth about a frame of it.
- :mod:`~coyote_pi.sim.render`: the scene drawn as a camera frame.
- :mod:`~coyote_pi.sim.camera`: the synthetic camera, a perfect-reading double of the
  camera and the vision code, and a camera with simulated faults.
- :mod:`~coyote_pi.sim.display`: luma's in-memory panel on a glitching bus.
- :mod:`~coyote_pi.sim.presser`: fingers on gpiozero's mock pins, with contact bounce,
  or straight into the controller's queue.
- :mod:`~coyote_pi.sim.deals`: the cards chosen for some rounds (``run --sim --deal``).
- :mod:`~coyote_pi.sim.table`: scripted hands that deal the cards and scripted players
  at the buttons.
- :mod:`~coyote_pi.sim.rig`: all of it around the real controller, assembled by the
  same :func:`~coyote_pi.table.rig.open_rig` as the real table.
- :mod:`~coyote_pi.sim.soak`: a long evening with the faults of a real table
  (:mod:`~coyote_pi.sim.soak_parts` fail, :mod:`~coyote_pi.sim.soak_report` says how it went).
"""
