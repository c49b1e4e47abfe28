"""Filmed games written to disk as a camera would leave them: a video file (MJPG) or a folder
of frames (each distinct picture written once, repeats hard-linked)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2

from bgboard.controller.script import Film, film_calibration, render_frames


def write_calibration(film: Film, path: Path) -> Path:
    path.write_text(json.dumps(film_calibration(film)))
    return path


def write_events(film: Film, path: Path) -> Path:
    path.write_text("".join(json.dumps({"frame": f, "button": b}) + "\n"
                            for f, b in sorted(film.buttons.items())))
    return path


def write_video(film: Film, path: Path, seed: int, workers: int = 2) -> Path:
    writer = None
    for frame in render_frames(film, seed, workers):
        if writer is None:
            h, w = frame.shape[:2]
            writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (w, h))
            writer.set(cv2.VIDEOWRITER_PROP_QUALITY, 95)
        writer.write(frame)
    writer.release()
    return path


def write_folder(film: Film, folder: Path, seed: int, workers: int = 2) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    last, last_path = None, None
    for index, frame in enumerate(render_frames(film, seed, workers)):
        path = folder / f"frame{index:06d}.jpg"
        if frame is last:
            os.link(last_path, path)
        else:
            cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
            last, last_path = frame, path
    return folder
