"""``coyote-pi hotspot``: the device's own Wi-Fi when no known one is in reach (run at boot).

``coyote-pi-hotspot.service`` runs it once after NetworkManager starts; see
:mod:`coyote_pi.pi.hotspot`. One line says what happened; the exit status is 0 when the
device is on a network or its hotspot is open, 1 when nmcli is missing or refuses, 2 for
a bad configuration.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from coyote_pi.config import ConfigError, load_config, split_listen
from coyote_pi.pi import install
from coyote_pi.pi.hotspot import WAIT_SECONDS, HotspotError, open_if_alone

#: Where the join details go for the table (the unit's runtime directory).
JOIN_FILE = "/run/coyote-pi-hotspot/hotspot.json"
#: Where the hotspot's key is kept between boots (the unit's state directory, root only).
KEY_FILE = "/var/lib/coyote-pi-hotspot/key"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, help=f"the table's configuration (the service uses {install.CONFIG})")
    parser.add_argument("--out", type=Path, default=Path(JOIN_FILE), help=f"the join details for the table ({JOIN_FILE})")
    parser.add_argument("--key-file", type=Path, default=Path(KEY_FILE), help=f"the hotspot's kept key ({KEY_FILE})")
    parser.add_argument("--wait", type=float, default=WAIT_SECONDS, metavar="S",
                        help=f"seconds to wait for a known network first (default {WAIT_SECONDS:g})")
    parser.add_argument("--ifname", default="wlan0", help="the Wi-Fi interface (default wlan0)")
    parser.add_argument("--ssid", help="the hotspot's name (default: the host name)")


def run(args: argparse.Namespace) -> int:
    try:
        _, port = split_listen(load_config(args.config).web.listen)
    except ConfigError as error:
        print(f"coyote-pi hotspot: {error}", file=sys.stderr)
        return 2
    try:
        outcome = open_if_alone(args.out, args.key_file, port=port, ifname=args.ifname, ssid=args.ssid,
                                wait=args.wait)
    except (HotspotError, OSError) as error:
        print(f"coyote-pi hotspot: no hotspot: {error}", file=sys.stderr)
        return 1
    join = outcome.hotspot
    if outcome.joined or join is None:
        print("coyote-pi hotspot: a known network is connected; no hotspot")
    else:
        print(f"coyote-pi hotspot: no known network; hotspot {join.ssid!r} is open, the page at {join.url} "
              f"(the OLED shows the code to join)")
    return 0
