"""Camera backends: every capture is an (h, w, 3) uint8 BGR frame or a clear CameraError."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from coyote_pi.devices.camera import FolderCamera, Picamera2Camera, WebcamCamera, checked_frame
from coyote_pi.devices.errors import CameraError, CameraLibraryError


def solid(value: int, size=(32, 24)) -> np.ndarray:
    """A small BGR image whose three channels differ, so channel order is checked too."""
    frame = np.zeros((size[1], size[0], 3), np.uint8)
    frame[:] = (value, value // 2, 255 - value)
    return frame


@pytest.fixture
def folder(tmp_path):
    for name, value in [("frame10.png", 30), ("frame2.png", 20), ("Frame1.jpg", 10)]:
        cv2.imwrite(str(tmp_path / name), solid(value))
    (tmp_path / "notes.txt").write_text("not an image")
    return tmp_path


def test_folder_replays_images_in_natural_name_order(folder):
    with FolderCamera(folder) as camera:
        names, values = [], []
        for _ in range(3):
            frame = camera.capture()
            assert frame.shape == (24, 32, 3) and frame.dtype == np.uint8
            names.append(camera.last_path.name)
            values.append(int(frame[0, 0, 0]))
        assert names == ["Frame1.jpg", "frame2.png", "frame10.png"]
        assert values[1:] == [20, 30] and abs(values[0] - 10) <= 3  # the JPEG is lossy
        with pytest.raises(CameraError, match="no more images \\(all 3 replayed\\)"):
            camera.capture()


def test_folder_can_loop(folder):
    camera = FolderCamera(folder, loop=True)
    names = []
    for _ in range(5):
        camera.capture()
        names.append(camera.last_path.name)
    assert names == ["Frame1.jpg", "frame2.png", "frame10.png", "Frame1.jpg", "frame2.png"]


def test_unreadable_file_is_a_clear_error_and_replay_goes_on(folder):
    (folder / "frame3.png").write_bytes(b"\x89PNG but truncated")
    (folder / "frame4.png").write_bytes(b"")
    camera = FolderCamera(folder)
    camera.capture()
    camera.capture()
    with pytest.raises(CameraError, match=r"frame3.png is not a readable image"):
        camera.capture()
    with pytest.raises(CameraError, match=r"frame4.png is not a readable image"):
        camera.capture()
    assert camera.capture()[0, 0, 0] == 30  # frame10.png


def test_grey_images_come_back_as_three_channels(tmp_path):
    cv2.imwrite(str(tmp_path / "grey.png"), np.full((10, 12), 77, np.uint8))
    frame = FolderCamera(tmp_path).capture()
    assert frame.shape == (10, 12, 3) and (frame == 77).all()


#: Captures a still in a fresh interpreter: how far the peak resident memory (reset just
#: before) rose above what stays resident, and the frame's size (Linux: /proc).
PEAK_OF_A_CAPTURE = """
import sys
from coyote_pi.devices.camera import FolderCamera
from coyote_pi.memory import tune_malloc

def kib(field):
    with open("/proc/self/status") as status:
        return int(next(line for line in status if line.startswith(field)).split()[1])

tune_malloc()  # as coyote-pi run does
camera = FolderCamera(sys.argv[1])
with open("/proc/self/clear_refs", "w") as refs:
    refs.write("5")  # the peak starts again from here
frame = camera.capture()
print((kib("VmHWM") - kib("VmRSS")) * 1024, frame.nbytes)
"""


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="peak memory is read from Linux's /proc")
def test_a_still_is_decoded_straight_into_its_frame(tmp_path):
    """The largest allocation of the real table's path: cv2.imdecode decoded a 4608x2592
    still into OpenCV's own image and copied it for Python, and held the file's bytes
    meanwhile: at the peak, the frame more than once."""
    cv2.imwrite(str(tmp_path / "still.png"), np.full((2592, 4608, 3), 90, np.uint8))  # a tiny file, a 34 MB frame
    done = subprocess.run([sys.executable, "-c", PEAK_OF_A_CAPTURE, str(tmp_path)], capture_output=True, text=True,
                          check=True, timeout=120)
    above, frame_bytes = (int(n) for n in done.stdout.split())
    assert frame_bytes == 2592 * 4608 * 3
    assert above < frame_bytes / 4


def test_an_opencv_without_the_output_array_form_still_reads_stills(folder, monkeypatch):
    real = cv2.imread

    def older_imread(filename, *args):
        if len(args) > 1:
            raise cv2.error("imread() takes at most 2 arguments (3 given)")
        return real(filename, *args)

    monkeypatch.setattr(cv2, "imread", older_imread)
    camera = FolderCamera(folder)
    camera.capture()
    assert camera.capture()[0, 0, 0] == 20


def test_missing_or_empty_folder(tmp_path):
    with pytest.raises(CameraError, match="does not exist"):
        FolderCamera(tmp_path / "nowhere")
    with pytest.raises(CameraError, match="has no images"):
        FolderCamera(tmp_path)


def test_picamera2_missing_is_explained(no_picamera2):
    with pytest.raises(CameraLibraryError, match=r"apt install python3-picamera2.*--system-site-packages"):
        Picamera2Camera()


def test_picamera2_built_for_another_numpy_is_a_camera_error_not_a_crash(broken_picamera2):
    """Its import raises ValueError, not ImportError: still the camera's failure, with the fix."""
    with pytest.raises(CameraLibraryError) as caught:
        Picamera2Camera()
    assert str(caught.value).startswith(f"picamera2 does not load (ValueError: {broken_picamera2}; numpy ")
    assert "'sudo rm -r /opt/coyote-pi/venv && sudo make install'" in str(caught.value)


def test_webcam_backend_reads_a_video_file(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (32, 24))
    assert writer.isOpened()
    for value in (40, 120):
        writer.write(solid(value))
    writer.release()
    with WebcamCamera(str(path)) as camera:
        frames = [camera.capture(), camera.capture()]
        assert [f.shape for f in frames] == [(24, 32, 3)] * 2
        assert abs(int(frames[1][5, 5, 0]) - 120) <= 8
        with pytest.raises(CameraError, match="delivered no frame"):
            camera.capture()


def test_webcam_that_does_not_exist(tmp_path):
    with pytest.raises(CameraError, match="cannot open webcam"):
        WebcamCamera(str(tmp_path / "no-such-camera.avi"))


def test_checked_frame_normalises_or_refuses():
    assert checked_frame(np.zeros((2, 3, 4), np.uint8), "x").shape == (2, 3, 3)
    with pytest.raises(CameraError, match="x returned no 8-bit image"):
        checked_frame(np.zeros((2, 3, 3), np.float32), "x")
    with pytest.raises(CameraError, match="unusable shape"):
        checked_frame(np.zeros((2, 3, 2), np.uint8), "x")
