"""The review of a game's closed rounds for the history pages (docs/review.md).

The review values moves with the strong level's numerics (numpy), which the page's process
never loads (docs/web.md): a child process computes it, ``coyote-pi review FILE --json
--so-far``, reading the record as the page does (the round still open is sealed in the
file, so it is never judged), and the page words its JSON (:mod:`coyote_pi.review.texts`).
:class:`~coyote_pi.web.games.Games` keeps it with the record's state it was made of, so a
game is reviewed again only when its record grew.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

#: A whole game's review takes at most 2 s on the device (``coyote-pi bench review``),
#: plus the child's start: past this the page shows the round without its review.
REVIEW_TIMEOUT = 30.0


def review_of(path: Path) -> dict[str, Any] | None:
    """The review of ``path``'s closed rounds as ``coyote-pi review --json`` prints it; None
    when the child fails (the page then shows the rounds without a review)."""
    try:
        done = subprocess.run([sys.executable, "-m", "coyote_pi", "review", str(path), "--json", "--so-far"],
                              capture_output=True, text=True, timeout=REVIEW_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    try:
        review = json.loads(done.stdout)
    except ValueError:
        return None
    return review if isinstance(review, dict) else None
