"""LED link: the time until the last of N frames is confirmed, host link -> pty -> firmware.

    python benchmarks/firmware.py [--frames 1000] [--rate 0.03] [--seed 6] [--fps 0]

The firmware runs in simavr with its UART at 115200 baud, simulated time locked to the wall
clock, so these are real-time figures. Every frame changes all 30 LEDs (a SET_LEDS of 90
payload bytes, 96 on the wire, and a 6-byte ACK). The frames are given as fast as the caller
can, or `--fps` a second; the link drops those superseded before they were sent and sends
only the LEDs that differ from what the board acknowledged. The clock runs from the first
frame given to the board's ACK of exactly the last one; then the board's LED buffer, read back
with GET_STATE (over the line with its faults switched off: a 108-byte STATE reply seldom
passes a line with more than 3% of faults), and the strip's decoded pins must both equal the
last frame.

`--rate` puts a pty proxy between host and board that meets each byte, both ways, with a fault
with that probability, drawn evenly from `--faults` (default drop, duplicate, corrupt: 0.03 is
1% of each).
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path

from bgboard.firmware_bridge.faulty_line import FaultyLine
from bgboard.firmware_bridge.link import Link
from bgboard.firmware_bridge.simulator import Simulator


def frame(i: int) -> list[tuple[int, int, int]]:
    return [((i + k) % 256, (3 * i) % 256, (5 * k + i) % 256) for k in range(30)]


def give(link: Link, frames: int, fps: float) -> None:
    """Frames 1..frames, as fast as possible or `fps` a second."""
    start = time.monotonic()
    for i in range(1, frames + 1):
        if fps:
            time.sleep(max(0.0, start + i / fps - time.monotonic()))
        link.set_leds(frame(i))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=0.0, help="fault rate per byte")
    parser.add_argument("--faults", default="drop,duplicate,corrupt",
                        help=f"kinds of fault, of {','.join(FaultyLine.KINDS)}")
    parser.add_argument("--seed", type=int, default=6, help="of the faults")
    parser.add_argument("--fps", type=float, default=0.0, help="frames a second (0: at once)")
    args = parser.parse_args()
    kinds = tuple(args.faults.split(","))
    if args.frames < 1 or not set(kinds) <= set(FaultyLine.KINDS):
        parser.error("--frames must be 1 or more, --faults some of "
                     f"{','.join(FaultyLine.KINDS)}")
    with tempfile.TemporaryDirectory() as tmp:
        sim = Simulator(Path(tmp) / "state.json")
        line = FaultyLine(sim.pty, args.rate, args.seed, kinds) if args.rate else None
        link = Link(line.port if line else sim.pty)
        try:
            measure(link, line, args)
            print(f"the strip's pins equal the last frame: "
                  f"{sim.state()['leds'] == [list(rgb) for rgb in frame(args.frames)]}")
        finally:
            link.close()
            if line:
                line.close()
            log = sim.stop()
    print(f"simulator: {log.splitlines()[0].removeprefix('bgboard_sim: ')}"
          if re.search(r"max lag ([0-9.]+) s", log) else log)


def measure(link: Link, line: FaultyLine | None, args: argparse.Namespace) -> None:
    """Give the frames, wait for the last to be confirmed, read it back; print the figures."""
    link.set_leds(frame(0))
    assert link.wait_confirmed(30.0), "the simulated board did not answer"
    sent, resends = link.stats.sent, link.stats.resends
    start = time.monotonic()
    give(link, args.frames, args.fps)
    given = time.monotonic() - start
    confirmed = link.wait_confirmed(600.0)
    took = time.monotonic() - start
    pace = f"{args.fps:g} a second" if args.fps else "all at once"
    print(f"{args.frames} frames of 30 LEDs, {pace} (given in {given:.2f} s): " + (
        f"the last confirmed after {took:.2f} s" if confirmed else "the last never confirmed"))
    stats = link.stats
    print(f"link: {stats.sent - sent} packets sent for the frames ({stats.resends - resends} "
          f"resends); {stats}")
    if line:
        print(f"line: {dict(line.faults)} faults in {line.bytes} bytes "
              f"({sum(line.faults.values()) / line.bytes:.2%})")
        line.rate = 0.0
    state = link.query_state(30.0)
    print(f"the board's LEDs read back with GET_STATE equal the last frame: "
          f"{state.leds == tuple(frame(args.frames))}; it counted {state.crc_errors} CRC "
          f"errors, {state.oversize} oversize, {state.bad_packets} bad packets")


if __name__ == "__main__":
    main()
