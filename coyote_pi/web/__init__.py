"""The table's own web page: follow the game, look back at a round, get the records out,
set the camera up (docs/web.md).

It runs as its own process (``coyote-pi web``, on the Pi its own unit and user) and
reads only public information: the records folder (a record is sealed while its round
is open) and the bulletin the table writes (``live.json``, the camera preview between
games, the doctor's checks). Its one way back to the table is the requests folder,
whose files the table treats as untrusted. It never loads the camera, the GPIO, numpy
or OpenCV: it cannot show what it never gets.

- :mod:`~coyote_pi.web.bulletin`: the three folders and what the table publishes.
- :mod:`~coyote_pi.web.games`: the records, round by round, with the odds of each bid.
- :mod:`~coyote_pi.web.views`: what each page shows, as data (also what the events carry).
- :mod:`~coyote_pi.web.texts`: the page's words in English, German and Russian.
- :mod:`~coyote_pi.web.security`: the PIN, the sessions, the cross-site checks.
- :mod:`~coyote_pi.web.setup`: the settings the page may propose, the device's log.
- :mod:`~coyote_pi.web.push`: the 50 ms watch and the server-sent events.
- :mod:`~coyote_pi.web.app`: the Starlette application and its routes.
- :mod:`~coyote_pi.web.screenshots`: each page, phone and wide, for the demo and the README.
"""
