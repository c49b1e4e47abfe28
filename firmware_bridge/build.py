"""Building the firmware and the simulator harness into a per-user cache, once per source."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIRMWARE, SIM = HERE / "firmware", HERE / "sim"


@dataclass(frozen=True)
class Build:
    """Paths of one build: the firmware (.elf for simavr, .hex for avrdude) and the harness."""

    elf: Path
    hex: Path
    harness: Path


def cache_root() -> Path:
    """$BGBOARD_CACHE, else $XDG_CACHE_HOME/bgboard, else ~/.cache/bgboard."""
    if os.environ.get("BGBOARD_CACHE"):
        return Path(os.environ["BGBOARD_CACHE"])
    xdg = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(xdg) / "bgboard"


def _digest() -> str:
    sha = hashlib.sha256()
    for path in sorted([*FIRMWARE.iterdir(), *SIM.iterdir()]):
        if path.is_file():
            sha.update(path.name.encode() + b"\0" + path.read_bytes())
    return sha.hexdigest()[:16]


def build(*, harness: bool = True) -> Build:
    """Build what is missing (needs gcc-avr, avr-libc, libsimavr-dev) and return the paths."""
    out = cache_root() / f"firmware-{_digest()}"
    result = Build(out / "bgboard.elf", out / "bgboard.hex", out / "bgboard_sim")
    if _built(result, harness):
        return result
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="build-", dir=out.parent))
    try:
        _make(FIRMWARE, tmp, "avr-gcc", "gcc-avr avr-libc")
        if harness:
            _make(SIM, tmp, "pkg-config", "simavr libsimavr-dev libelf-dev pkg-config")
        if out.exists() and not _built(result, harness):
            shutil.rmtree(out)  # built earlier without the harness, which is wanted now
        try:
            tmp.rename(out)
        except OSError:  # another process (a parallel test worker) built it meanwhile
            if not _built(result, harness):
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return result


def _built(paths: Build, harness: bool) -> bool:
    """Whether the firmware is there, and the harness when it is wanted."""
    return paths.elf.exists() and (not harness or paths.harness.exists())


def _make(source: Path, build_dir: Path, tool: str, packages: str) -> None:
    if shutil.which(tool) is None or shutil.which("make") is None:
        raise OSError(f"{tool} or make not found: install the Debian packages make {packages}")
    run = subprocess.run(["make", "-f", str(source / "Makefile"), f"BUILD={build_dir}"],
                         capture_output=True, text=True)
    if run.returncode:
        lines = [line for line in run.stderr.splitlines() if line.strip()] or ["(no output)"]
        raise OSError(f"building {source.name} failed: {lines[-1]}")
