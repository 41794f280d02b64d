"""The exceptions the device layer raises, all one-line messages a person can act on.

Catch :class:`DeviceError` to handle any of them; the subclasses say which part failed.
"""

from __future__ import annotations


class DeviceError(Exception):
    """A device could not be set up or used; the message says which one and what to do."""


class PinMapError(DeviceError):
    """The pin map file is missing, unreadable or breaks a wiring rule."""


class DeviceConfigError(DeviceError):
    """The ``[display]``, ``[buttons]`` or ``[camera]`` configuration has a bad key or value."""


class CameraError(DeviceError):
    """The camera delivered no usable frame; the controller falls back to the manual path."""


class CameraLibraryError(CameraError):
    """The camera software cannot be loaded: picamera2 is missing, or was built for another numpy."""
