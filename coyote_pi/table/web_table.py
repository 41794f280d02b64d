"""What the table's web side needs of the table: one seam for its four modules.

The web side (:mod:`~coyote_pi.table.web_side`) and what it builds (the bulletin, the
access screens, the requests and the page's settings) receive the controller only as a
:class:`WebTable`: the common :class:`~coyote_pi.table.part.Table` seam, plus the
configuration and a way to change it between games, the camera, the presenter's pages
and the listeners. A module of its own, so that they all name it without importing
each other (see :mod:`~coyote_pi.table.part`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from coyote_pi.table.part import Table

if TYPE_CHECKING:
    from coyote_pi.config import TableConfig
    from coyote_pi.table.camera_reads import CameraReads
    from coyote_pi.table.presenter import Listener, Presenter
    from coyote_pi.table.virtual_seats import VirtualSeats


class WebTable(Table, Protocol):
    """What the table's web side needs of it (the bulletin, the access screens, the
    requests and the page's settings): the configuration and a way to change it between
    games, the camera, the presenter's pages, the listeners, the wait's path, the virtual
    seats (which the bulletin names)."""

    config: TableConfig
    camera: CameraReads
    presenter: Presenter
    listeners: list[Listener]
    virtual: VirtualSeats

    def is_manual(self) -> bool: ...

    def use_config(self, config: TableConfig) -> None: ...
