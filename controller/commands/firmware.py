"""`bgboard firmware build|sim|flash`: the microcontroller firmware and its simulator."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "firmware", help="build, simulate or flash the LED + cube microcontroller firmware")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True

    build = actions.add_parser("build", help="build the firmware and simulator; print paths")
    build.set_defaults(run=run_build)

    sim = actions.add_parser(
        "sim", help="run the real firmware in simavr; first line 'pty: PATH'; until killed")
    sim.add_argument("--state", metavar="FILE",
                     help='rewritten on every pin change: {"leds": [...], "servo_deg": a}')
    sim.add_argument("--link", metavar="PATH",
                     help="also make PATH a symlink to the pty (a stable port name)")
    sim.set_defaults(run=run_sim)

    flash = actions.add_parser("flash", help="flash an Arduino Uno / Nano with avrdude")
    flash.add_argument("--port", required=True, help="the board's serial port")
    flash.add_argument("--programmer", default="arduino",
                       help="avrdude programmer (default arduino)")
    flash.add_argument("--baud", type=int, default=115200,
                       help="bootloader baud rate: 115200 (Uno, new Nano), 57600 (old Nano)")
    flash.set_defaults(run=run_flash)


def run_build(args: argparse.Namespace) -> int:
    from ...firmware_bridge.build import build

    paths = build()
    print(f"elf: {paths.elf}\nhex: {paths.hex}\nsim: {paths.harness}")
    return 0


def run_sim(args: argparse.Namespace) -> int:
    from ...firmware_bridge.build import build

    if args.state and not os.path.isdir(os.path.dirname(os.path.abspath(args.state))):
        raise OSError(f"{args.state}: its directory does not exist")
    paths = build()
    argv = [str(paths.harness), str(paths.elf)]
    if args.state:
        argv += ["--state", args.state]
    if args.link:
        argv += ["--link", args.link]
    sys.stdout.flush()
    os.execv(argv[0], argv)


def run_flash(args: argparse.Namespace) -> int:
    from ...firmware_bridge.build import build

    if shutil.which("avrdude") is None:
        raise OSError("avrdude not found: install the Debian package avrdude")
    paths = build(harness=False)
    return subprocess.call(["avrdude", "-p", "m328p", "-c", args.programmer, "-P", args.port,
                            "-b", str(args.baud), "-U", f"flash:w:{paths.hex}:i"])
