"""What live.json's ``"camera"`` says: the table's bulletin writes one of these
(:mod:`coyote_pi.table.bulletin`), the web page words it (:mod:`coyote_pi.web.bulletin`).

A module of its own that imports nothing: the page, a process of its own, takes the
states from here without loading the table's controller.
"""

#: The camera reads the cards.
OK = "ok"
#: It gave no frame in time and is being restarted.
RESTARTING = "restarting"
#: The cards are entered with the buttons: no camera, or this wait is on the manual path.
MANUAL = "manual"
#: Every state live.json may hold.
CAMERA_STATES = (OK, RESTARTING, MANUAL)
