"""The table speaks (issue 36): its public events said aloud with espeak-ng, in the game's
language, never a card of an open round.

- :mod:`~.moment`: what the speech hears, the table's public facts only (:class:`Moment`);
- :mod:`~.announcer`: what is said, worded from the catalogs as the OLED's screens are;
- :mod:`~.voice`: espeak-ng, streamed, the repeated phrases cached;
- :mod:`~.sinks`: the sound device (aplay), a folder of WAV files, the demo's track;
- :mod:`~.speaker`: the speech thread; the controller's loop never waits for it.
"""
