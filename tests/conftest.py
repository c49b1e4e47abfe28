"""Fixtures shared by several test files. Helper functions and classes live in the tests/
*_helpers.py modules (pythonpath in pyproject.toml puts tests/ on the import path)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bgboard.firmware_bridge.simulator import Simulator
from cli_helpers import CAL


@pytest.fixture
def sim(tmp_path: Path):
    """The firmware running in simavr on a pty, its state in tmp_path; stopped after the test,
    which fails if the LED strip saw a timing error or an early latch."""
    simulator = Simulator(tmp_path / "state.json")
    yield simulator
    log = simulator.stop()
    assert " 0 timing errors, 0 overflow bits" in log, log
    assert int(re.search(r"longest low (\d+) ns", log)[1]) < 5000, log   # no early latch


@pytest.fixture
def cal(tmp_path: Path) -> Path:
    """cli_helpers.CAL written as a calibration file."""
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(CAL))
    return path
