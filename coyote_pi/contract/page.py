"""What the table and its web page both name: the files in the bulletin and requests
folders, and the camera states ``live.json`` says (the formats: docs/web.md).

The table writes the bulletin and reads the requests (:mod:`coyote_pi.table.bulletin`,
:mod:`coyote_pi.table.web_requests`, :mod:`coyote_pi.table.page_settings`); the page,
a process of its own, does the opposite (:mod:`coyote_pi.web.bulletin`). A module of
its own that imports nothing, so the page takes the names from here without loading
the table's controller, and neither side can rename a file the other still looks for.
"""

#: The table's systemd unit: the installer installs it, the page shows its journal.
TABLE_UNIT = "coyote-pi.service"

# --- the bulletin: written by the table, read by the page

#: The game and the OLED as anyone at the table sees them.
LIVE = "live.json"
#: Between games, while the setup page is open: the camera view and what it shows.
PREVIEW, PREVIEW_INFO = "preview.jpg", "preview.json"
#: The doctor's checks, after the page asked for them.
DOCTOR = "doctor.json"
#: The table's answer to the page's proposed settings.
SETTINGS_RESULT = "settings-result.json"
#: The page-settable settings in force, and those configured beneath them.
SETTINGS_IN_FORCE = "settings.json"

# --- the requests folder: written by the page, read by the table

#: Empty files the page touches to ask for the camera view and the doctor's checks.
PREVIEW_WANT, DOCTOR_WANT = "preview.want", "doctor.want"
#: The settings the page proposes.
SETTINGS = "settings.toml"

# --- live.json's "camera"

#: The camera reads the cards.
OK = "ok"
#: It gave no frame in time and is being restarted.
RESTARTING = "restarting"
#: The cards are entered with the buttons: no camera, or this wait is on the manual path.
MANUAL = "manual"
#: Every state live.json may hold.
CAMERA_STATES = (OK, RESTARTING, MANUAL)
