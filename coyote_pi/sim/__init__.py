"""The simulated table: everything that stands in for cards, hands, fingers and hardware.

The real table never imports this package (a test checks it); the demo, ``run --sim``,
the benchmarks and the tests build their tables from it.

- :mod:`~coyote_pi.sim.render`: the synthetic table (:class:`TableScene`) drawn as a
  camera frame, and where every marker landed in it.
- :mod:`~coyote_pi.sim.presser`: fingers on gpiozero's mock pins, with contact bounce.
- :mod:`~coyote_pi.sim.table`: scripted hands that deal the cards and scripted players
  at the buttons.
"""
