"""The table: the controller that turns seat buttons and camera frames into a game of Coyote.

- :mod:`~coyote_pi.table.controller` runs one game loop that owns all state; buttons,
  the camera worker and timers only put items into its queue. It hands each press to
  the part of the stage (:mod:`~coyote_pi.table.game_start`,
  :mod:`~coyote_pi.table.turn`, :mod:`~coyote_pi.table.verdict_buttons`,
  :mod:`~coyote_pi.table.manual_entry`, :mod:`~coyote_pi.table.record_hold`) and each
  reading to :mod:`~coyote_pi.table.card_waits`. The state they share is
  :mod:`~coyote_pi.table.state`, which imports no part.
- :mod:`~coyote_pi.table.selector` is the per-seat "one pending choice" button scheme.
- :mod:`~coyote_pi.table.screens` builds the OLED screens, in the words of
  :mod:`coyote_pi.words` (English, German and Russian).
- :mod:`~coyote_pi.table.camera_wait` decides, from camera readings, whether the cards
  the flow waits for are on the table (and says why not).
- :mod:`~coyote_pi.table.store` keeps the game records and the table's own notes in them.
- :mod:`coyote_pi.config` (below the table, the page reads it too) is the configuration
  the controller is built from.
- :mod:`~coyote_pi.table.rig` assembles devices, vision, record and controller (the
  simulated table, :mod:`coyote_pi.sim`, hands its own parts to the same assembly).

The ``demo`` and ``run`` commands that start a table live in :mod:`coyote_pi.commands`.

docs/controller.md describes the buttons and flows for players.
"""
