"""The marker mapping file: complete, unambiguous, and as robust as it claims."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from coyote_pi.cards import ALL_CARDS
from coyote_pi.vision import artwork
from coyote_pi.vision.markerset import (
    ALL_ROLES,
    COYOTE_ROLE,
    MarkerFileError,
    card_role,
    load_markers,
    marker_file_text,
    parse_marker_file,
)


@pytest.mark.parametrize("scheme", ["aruco", "qr"])
def test_every_role_has_its_own_code_and_maps_back(scheme):
    markers = load_markers(scheme)
    assert set(markers.codes) == set(ALL_ROLES)
    assert len(set(markers.codes.values())) == len(ALL_ROLES)
    for role, code in markers.codes.items():
        assert markers.role_of(code) == role
    assert {card_role(c) for c in ALL_CARDS} < set(markers.codes)
    assert sum(r.startswith("stand:") for r in markers.codes) == 6


def test_card_codes_differ_in_at_least_five_bits_under_every_rotation():
    """What markers.toml promises for the cards and the Coyote card (DICT_4X4_50 as a
    whole guarantees only 4): misreading one card as another takes 5 flipped cells."""
    markers = load_markers("aruco")
    roles = [card_role(c) for c in ALL_CARDS] + [COYOTE_ROLE]
    bits = {r: artwork.marker_modules(markers, r)[1:-1, 1:-1] for r in roles}
    for a, b in itertools.combinations(roles, 2):
        distance = min(int((bits[a] != np.rot90(bits[b], k)).sum()) for k in range(4))
        assert distance >= 5, (a, b, distance)
    for r in roles:  # nor may a card look like itself turned
        assert min(int((bits[r] != np.rot90(bits[r], k)).sum()) for k in (1, 2, 3)) >= 5


def test_drawn_aruco_markers_decode_to_their_ids():
    markers = load_markers("aruco")
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, markers.dictionary)))
    for role in ALL_ROLES:
        _corners, ids, _ = detector.detectMarkers(artwork.marker_image(markers, role, 10))
        assert ids is not None and ids.ravel().tolist() == [markers.codes[role]], role


def test_qr_payloads_are_self_describing_and_fit_version_one():
    markers = load_markers("qr")
    for role, payload in markers.codes.items():
        assert payload.startswith("CY ") and len(payload.encode()) <= 14
        assert artwork.marker_modules(markers, role).shape == (21, 21)


def test_sticker_sizes_include_the_quiet_zone():
    aruco, qr = load_markers("aruco"), load_markers("qr")
    assert aruco.marker_mm("card:7") == 25.0 and aruco.sticker_mm("card:7") == pytest.approx(25.0 * 8 / 6)
    assert aruco.marker_mm("stand:1") == 50.0
    assert qr.sticker_mm("card:7") == pytest.approx(qr.marker_mm("card:7") * 25 / 21)


def test_a_broken_mapping_file_is_refused():
    text = marker_file_text()
    with pytest.raises(MarkerFileError, match="missing"):
        parse_marker_file(text.replace('"card:7" = 9\n', ""), "aruco")
    with pytest.raises(MarkerFileError, match="share a code"):
        parse_marker_file(text.replace('"card:7" = 9', '"card:7" = 8'), "aruco")
    with pytest.raises(MarkerFileError, match="unknown marker scheme"):
        parse_marker_file(text, "barcode")
