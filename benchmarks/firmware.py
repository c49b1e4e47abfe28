"""Link throughput: full 30-LED frames per second, host link -> pty -> firmware in simavr.

    python benchmarks/firmware.py [--frames 500] [--rate 0.0]

Each frame is a SET_LEDS packet (90 payload bytes, 96 bytes on the wire) that the firmware
clocks out to the WS2812 strip before it ACKs (6 bytes). The simulated UART runs at 115200
baud (UBRR 16, U2X) and simavr delivers one byte per 93 us of simulated time (it counts 11
bits per byte; a real 8N1 byte takes 86.8 us); the harness locks simulated time to the wall
clock, so these are real-time figures. `--rate` puts the 1% faulty line of the tests between.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from bgboard.firmware_bridge.link import Link  # noqa: E402
from bgboard.firmware_bridge.simulator import Simulator  # noqa: E402
from firmware_helpers import FaultyLine  # noqa: E402

WIRE_BYTES = 96 + 6          # SET_LEDS out, ACK back
SIM_BYTE_US = 93             # simavr's UART byte time at 115200 baud
REAL_BYTE_US = 10 / 115200 * 1e6


def frame(i: int) -> list[tuple[int, int, int]]:
    return [((i + k) % 256, (3 * i) % 256, (5 * k) % 256) for k in range(30)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=500)
    parser.add_argument("--rate", type=float, default=0.0, help="fault rate per byte")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sim = Simulator(Path(tmp) / "state.json")
        line = FaultyLine(sim.pty, args.rate) if args.rate else None
        link = Link(line.port if line else sim.pty)
        try:
            link.set_leds(frame(0))
            assert link.wait_confirmed(5.0), "the simulated board did not answer"
            start = time.monotonic()
            for i in range(1, args.frames + 1):
                link.set_leds(frame(i))
            assert link.wait_confirmed(600.0), "frames not confirmed"
            took = time.monotonic() - start
            assert sim.state()["leds"] == [list(rgb) for rgb in frame(args.frames)]
        finally:
            link.close()
            if line:
                line.close()
            log = sim.stop()
    fps = args.frames / took
    print(f"{args.frames} full 30-LED frames at 115200 baud (fault rate {args.rate:g}): "
          f"{took:.2f} s, {fps:.1f} frames/s, {1000 / fps:.2f} ms per frame")
    print(f"wire limit: {1e6 / (WIRE_BYTES * SIM_BYTE_US):.1f} frames/s in simavr "
          f"({SIM_BYTE_US} us/byte), {1e6 / (WIRE_BYTES * REAL_BYTE_US):.1f} frames/s on a "
          f"real 8N1 line ({REAL_BYTE_US:.1f} us/byte)")
    print(f"link: {link.stats}")
    lag = re.search(r"max lag ([0-9.]+) s", log)
    print(f"simulator: {log.splitlines()[0].removeprefix('bgboard_sim: ')}"
          if lag else log)


if __name__ == "__main__":
    main()
