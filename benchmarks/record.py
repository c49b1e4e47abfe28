"""Recording speed and accuracy: filmed games -> video files -> what `bgboard record` does
(vision on every frame through the field watch, vision.steady.SteadyReader, then the
controller). Prints frames per second of CPU time and the speed over real time (the films run
at 10 frames a second), and whether every action was recorded right.

    python benchmarks/record.py [--films game2 game3 game4 logo] [--workers 2]
    python benchmarks/record.py --films game2 logo game3 --against ../old   # two versions

The films are benchmarks/films.py's (the classic ones and those in looks held out of all
training). Each video is written once, then recorded by benchmarks/record_one.py in a process
of its own; with `--against TREE` (a checkout of another version: its package root, e.g. a
`git worktree add ../old COMMIT`) each film is also recorded by that version, in turn with
this one, so both meet the same load.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bgboard.benchmarks.films import NAMES, film, seed_of
from bgboard.benchmarks.record_one import actions
from bgboard.controller.demo.film import learned_calibration, write_video

ONE = Path(__file__).with_name("record_one.py")


def recorded(video: Path, tree: Path | None) -> dict:
    """record_one's reading of `video` by this bgboard, or by the one at `tree`."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if tree is not None:
        env["PYTHONPATH"] = str(tree.parent)
    run = subprocess.run([sys.executable, str(ONE), str(video), str(video.with_suffix(".json")),
                          str(video.with_suffix(".buttons.json"))], env=env,
                         capture_output=True, text=True)
    if run.returncode:
        raise SystemExit(f"record.py: {tree or 'this tree'} failed on {video.name}: "
                         f"{run.stderr.strip().splitlines()[-1]}")
    return json.loads(run.stdout.splitlines()[-1])


def package_link(tree: Path, folder: Path) -> Path:
    """`tree` (a package root) as `folder`/bgboard, so that its parent goes on PYTHONPATH."""
    link = folder / "against" / "bgboard"
    link.parent.mkdir()
    link.symlink_to(tree.resolve(), target_is_directory=True)
    return link


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--films", nargs="+", choices=NAMES,
                        default=["game2", "game3", "game4", "logo"])
    parser.add_argument("--workers", type=int, default=2, help="processes rendering films")
    parser.add_argument("--against", type=Path, metavar="TREE",
                        help="also record each film with the bgboard checked out at TREE")
    args = parser.parse_args()
    if args.against and not (args.against / "controller" / "recorder.py").is_file():
        parser.error(f"--against: {args.against} is no bgboard checkout")
    versions = ["now"] + (["against"] if args.against else [])
    print(f"{'film':>6} {'version':>8} {'turns':>6} {'frames':>7} {'fps':>7} "
          f"{'x real time':>11}  right")
    totals = {v: [0, 0.0] for v in versions}
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"now": None, "against": package_link(args.against, Path(tmp))
                 if args.against else None}
        for name in args.films:
            shot, seed = film(name), seed_of(name)
            video = write_video(shot, Path(tmp) / f"{name}.avi", seed, args.workers)
            video.with_suffix(".json").write_text(json.dumps(learned_calibration(shot, seed)))
            video.with_suffix(".buttons.json").write_text(json.dumps(shot.buttons))
            turns = sum(1 for a in shot.match.games[0].record if a.kind == "move")
            for version in versions:
                got = recorded(video, trees[version])
                fps = got["frames"] / got["cpu"]
                right = got["actions"] == actions(shot.match.games[0])
                totals[version][0] += got["frames"]
                totals[version][1] += got["cpu"]
                print(f"{name:>6} {version:>8} {turns:>6} {got['frames']:>7} {fps:>7.1f} "
                      f"{fps / 10:>11.1f}  {'yes' if right else 'NO'}", flush=True)
    for version, (frames, cpu) in totals.items():
        print(f"all, {version}: {frames / cpu:.1f} frames per second of CPU time on one core, "
              f"{frames / cpu / 10:.1f} x real time (aim: at least 5 x)")


if __name__ == "__main__":
    main()
