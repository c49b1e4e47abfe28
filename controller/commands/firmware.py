"""`bgboard firmware build|sim|info|flash`: the microcontroller firmware and its simulator."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys

from . import example


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "firmware", help="build, simulate or flash the LED + cube microcontroller firmware",
        epilog=example("bgboard firmware flash --port /dev/ttyUSB0"))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True

    build = actions.add_parser("build", help="build the firmware and simulator; print paths",
                                epilog=example("bgboard firmware build"))
    build.set_defaults(run=run_build)

    sim = actions.add_parser(
        "sim", help="run the real firmware in simavr; first line 'pty: PATH'; until killed",
        epilog=example("bgboard firmware sim --state /tmp/board.json"))
    sim.add_argument("--state", metavar="FILE",
                     help='rewritten on every pin change: {"leds": [...], "servo_deg": a}')
    sim.add_argument("--link", metavar="PATH",
                     help="also make PATH a symlink to the pty (a stable port name)")
    sim.set_defaults(run=run_sim)

    info = actions.add_parser("info", help="say HELLO to the board; print what it reports",
                               epilog=example("bgboard firmware info --port /dev/ttyUSB0"))
    info.add_argument("--port", help="serial port (default: find the board by USB ID)")
    info.add_argument("--timeout", type=float, default=5.0, help="seconds to wait (default 5)")
    info.set_defaults(run=run_info)

    flash = actions.add_parser("flash", help="flash an Arduino Uno / Nano with avrdude",
                                epilog=example("bgboard firmware flash --port /dev/ttyUSB0 "
                                               "--baud 57600"))
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


def run_info(args: argparse.Namespace) -> int:
    from ...firmware_bridge.link import Link

    events = []
    link = Link(args.port, on_event=events.append)
    try:
        if not link.wait_confirmed(args.timeout):
            last = events[-1].detail if events else "no answer"
            raise OSError(f"no board answered on {args.port or 'USB'} within "
                          f"{args.timeout:g} s: {last}")
        state = link.query_state(args.timeout)
        hello, port = link.hello, link.port or events[-1].detail
    finally:
        link.close()
    print(json.dumps({
        "port": port, "protocol": hello.protocol, "firmware": "{}.{}".format(*hello.firmware),
        "board_id": hello.board_id, "leds": hello.led_count, "button_events": hello.button_events,
        "silence_ms": hello.silence_ms, "servo_deg": state.servo_now,
        "errors": {"crc": state.crc_errors, "oversize": state.oversize,
                   "bad": state.bad_packets}}))
    return 0


def run_flash(args: argparse.Namespace) -> int:
    from ...firmware_bridge.build import build

    if shutil.which("avrdude") is None:
        raise OSError("avrdude not found: install the Debian package avrdude")
    paths = build(harness=False)
    return subprocess.call(["avrdude", "-p", "m328p", "-c", args.programmer, "-P", args.port,
                            "-b", str(args.baud), "-U", f"flash:w:{paths.hex}:i"])
