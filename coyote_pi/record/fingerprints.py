"""Fingerprints: the short form of a record's last hash that the table shows at every
verdict, its QR code's text, and reading back what a person noted.

A record changed or cut short afterwards has another last hash, so its fingerprint tells
it from the one that was played (``coyote-pi replay --expect``).
"""

from __future__ import annotations

import re

#: Crockford's base 32: digits and capitals without I, L, O and U, so nothing is misread.
_BASE32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Characters of the fingerprint shown at the table: 16 x 5 = 80 bits of the last hash.
FINGERPRINT_CHARS = 16


def fingerprint(digest: str) -> str:
    """The fingerprint the table shows for a record whose last line hashes to ``digest``:
    its first 80 bits in Crockford base 32, in groups of four.

    >>> fingerprint("0" * 20 + "f" * 44), fingerprint("ff" * 32)
    ('0000-0000-0000-0000', 'ZZZZ-ZZZZ-ZZZZ-ZZZZ')
    """
    bits = int(digest[: FINGERPRINT_CHARS * 5 // 4], 16)
    chars = "".join(_BASE32[(bits >> 5 * i) & 31] for i in reversed(range(FINGERPRINT_CHARS)))
    return "-".join(chars[i : i + 4] for i in range(0, FINGERPRINT_CHARS, 4))


def fingerprint_qr(digest: str) -> str:
    """The whole last hash for a QR code: capital hex, which a QR code stores in its
    compact alphanumeric mode; ``replay --expect`` takes it as it is scanned."""
    return digest.upper()


def normalize_fingerprint(noted: str) -> str:
    """What a person noted, as :func:`fingerprint` writes it or as the full hash in
    lowercase hex. Spaces, dashes and case do not matter, and O, I and L are read as 0,
    1 and 1 (as Crockford's base 32 says). ValueError when it is neither."""
    cleaned = re.sub(r"[\s-]", "", noted).upper()
    if len(cleaned) == 64 and all(c in "0123456789ABCDEF" for c in cleaned):
        return cleaned.lower()
    cleaned = cleaned.translate(str.maketrans("OIL", "011"))
    if len(cleaned) == FINGERPRINT_CHARS and all(c in _BASE32 for c in cleaned):
        return "-".join(cleaned[i : i + 4] for i in range(0, FINGERPRINT_CHARS, 4))
    raise ValueError(f"{noted!r} is not a fingerprint: give the {FINGERPRINT_CHARS} characters the table "
                     "shows (like 7K2M-9QXD-4HTR-BW3N) or the full 64-digit hash of its QR code")
