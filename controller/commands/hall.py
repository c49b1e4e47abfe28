"""`bgboard hall`: the tournament's hall, every board's match kept from the MQTT broker."""

from __future__ import annotations

import signal
import threading

from . import example


def register(sub) -> None:
    p = sub.add_parser("hall", help="follow every board of a tournament through the MQTT broker",
                       description="Follow every board publishing under the broker URL's PREFIX "
                                   "(play or record with --relay) and keep DIR/NAME.mat, each "
                                   "board's match so far, through restarts of the hall, the "
                                   "broker or a board; with --web, one page shows every board "
                                   "live. Runs until stopped (Ctrl-C). docs/tournaments.md",
                       epilog=example("bgboard hall --broker mqtt://hall@192.168.1.10/club "
                                      "--out boards --web 0.0.0.0:8080 --token s3cret"))
    p.add_argument("--broker", required=True, metavar="URL",
                   help="mqtt://[USER:PASSWORD@]HOST[:PORT]/PREFIX (mqtts:// for TLS; or the "
                        "user and password in BGBOARD_RELAY_USER and BGBOARD_RELAY_PASSWORD)")
    p.add_argument("--out", required=True, metavar="DIR", help="folder of the boards' files")
    p.add_argument("--web", metavar="[HOST:]PORT", help="serve the page of every board")
    p.add_argument("--token", help="web access token (required off 127.0.0.1)")
    p.set_defaults(run=run)


def run(args) -> int:
    from ..broker import parse_url
    from ..hall import Hall

    broker = parse_url(args.broker)
    hall = Hall(broker, args.out)
    hall.start()
    server = None
    if args.web:
        try:
            from ..web.hall import serve_hall
        except ImportError as exc:
            raise ValueError("the hall's page needs the web extra: pip install 'bgboard[web]'") \
                from exc

        host, _, port = args.web.rpartition(":")
        server = serve_hall(hall, host or "127.0.0.1", int(port), args.token)
        print(f"web view: {server.url}", flush=True)
    stop = threading.Event()
    old = {s: signal.signal(s, lambda *_: stop.set()) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        while not stop.wait(1.0):
            pass
    finally:
        hall.stop()
        if server is not None:
            server.stop()
        for s, handler in old.items():
            signal.signal(s, handler)
    return 0
