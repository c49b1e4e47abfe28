"""benchmarks/train_checkers_gpu.sh: which frames it renders and which nets it trains. The
script's shell runs for real; `python3` is a stand-in that records its arguments, since the
training itself needs a GPU machine (train_checkers.py's own steps are tested beside it)."""

import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "train_checkers_gpu.sh"


def run_script(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    bin_dir, calls = tmp_path / "bin", tmp_path / "calls"
    bin_dir.mkdir()
    stand_in = bin_dir / "python3"
    stand_in.write_text(f'#!/bin/sh\necho "$*" >> {calls}\n')
    stand_in.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    done = subprocess.run(["sh", str(SCRIPT), str(tmp_path / "out"), *args], env=env,
                          capture_output=True, text=True, timeout=60)
    lines = calls.read_text().splitlines() if calls.exists() else []
    return done, sorted(lines)


def test_shade_and_mono_are_a_thousand_random_positions_each(tmp_path: Path) -> None:
    done, calls = run_script(tmp_path, "shade,mono", "x:8:60")
    assert done.returncode == 0, done.stderr
    renders = [c for c in calls if " render " in c]
    assert renders == (
        [f"train_checkers.py render --frames 100 --first {s} --shade"
         for s in range(560_000, 561_000, 100)]
        + [f"train_checkers.py render --frames 100 --first {s} --mono"
           for s in range(640_000, 641_000, 100)])


def test_base_is_random_tall_and_studded_frames(tmp_path: Path) -> None:
    done, calls = run_script(tmp_path, "base", "x:8:60")
    assert done.returncode == 0, done.stderr
    renders = [c.removeprefix("train_checkers.py render --frames 100 ") for c in calls
               if " render " in c]
    assert len(renders) == 56
    assert renders.count("--first 402900") == 1 and "--first 403000 --tall" in renders
    assert "--first 403900 --tall" in renders and "--first 404000 --tall" not in renders
    assert sum(r.endswith("--looks studded") for r in renders) == 16
    assert "--first 421500 --looks studded" in renders


def test_each_recipe_trains_one_net_per_fold_held_out(tmp_path: Path) -> None:
    done, calls = run_script(tmp_path, "shade", "p:8:60::40", "r:8:60::40:0.3")
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    trains = [c for c in calls if " train " in c]
    assert len(trains) == 10
    assert (f"train_checkers.py train --device cuda --epochs 8 --real-folds 0,1,3,4 "
            f"--real-cuts 60 --pasted 40 --out {out}/p2.onnx") in trains
    assert (f"train_checkers.py train --device cuda --epochs 8 --real-folds 1,2,3,4 "
            f"--real-cuts 60 --pasted 40 --real-shade 0.3 --out {out}/r0.onnx") in trains
    assert sum("--real-shade" in c for c in trains) == 5


def test_unknown_frames_are_refused_before_anything_runs(tmp_path: Path) -> None:
    done, calls = run_script(tmp_path, "base,shadows", "x:8:60")
    assert done.returncode == 2
    assert done.stderr.strip() == ("unknown frames: shadows (choose from base, more, big, "
                                   "walls, shade, mono)")
    assert calls == []
