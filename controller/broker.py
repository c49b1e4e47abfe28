"""The tournament's MQTT broker: its URL, and a paho-mqtt client that keeps reconnecting to it.

A URL is `mqtt://[USER:PASSWORD@]HOST[:PORT]/PREFIX` (`mqtts://` for TLS; ports 1883 and 8883
by default). The user and password may instead come from BGBOARD_RELAY_USER and
BGBOARD_RELAY_PASSWORD, and a TLS broker's own CA certificate from BGBOARD_RELAY_CA. The
password is never shown: `Broker.shown` is the URL without it, for messages.

paho-mqtt is imported only here, when a client is made, so that other commands never need it.
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass, field
from urllib.parse import quote, unquote, urlsplit

LEVEL = re.compile(r"[A-Za-z0-9_.-]+")
"""One topic level of PREFIX, and a board's NAME: no MQTT wildcards, safe as a file name."""
SCHEMES = {"mqtt": 1883, "mqtts": 8883}
RELAY_WAIT = 60.0
"""Seconds `record` waits at its end for the broker to acknowledge everything."""


@dataclass(frozen=True)
class Broker:
    """A parsed broker URL."""

    host: str
    port: int
    prefix: str
    tls: bool = False
    user: str | None = None
    password: str | None = field(default=None, repr=False)

    @property
    def shown(self) -> str:
        """The URL as it may be printed: the user, never the password."""
        scheme = "mqtts" if self.tls else "mqtt"
        user = f"{quote(self.user, safe='')}@" if self.user else ""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{scheme}://{user}{host}:{self.port}/{self.prefix}"

    def topic(self, board: str, kind: str) -> str:
        return f"{self.prefix}/{board}/{kind}"


def parse_url(url: str, environ: dict[str, str] | None = None) -> Broker:
    """The broker a URL names; ValueError (which never repeats the password) when it cannot
    be parsed."""
    environ = os.environ if environ is None else environ
    scheme = url.split("://", 1)[0] if "://" in url else ""
    if scheme not in SCHEMES:
        raise ValueError("the broker URL must look like mqtt://[USER:PASSWORD@]HOST[:PORT]/PREFIX"
                         " (or mqtts:// for TLS)")
    parts = urlsplit(url)
    try:
        port = parts.port or SCHEMES[scheme]
    except ValueError:
        raise ValueError("the broker URL's port must be a number 1-65535") from None
    if not parts.hostname:
        raise ValueError("the broker URL names no host: mqtt://HOST[:PORT]/PREFIX")
    prefix = parts.path.strip("/")
    if "?" in url or "#" in url or not all(LEVEL.fullmatch(p) for p in prefix.split("/")):
        raise ValueError("the broker URL needs a topic PREFIX after the host (letters, digits, "
                         "'_', '-', '.', levels split by '/'), e.g. mqtt://HOST/club")
    user = unquote(parts.username) if parts.username else environ.get("BGBOARD_RELAY_USER")
    password = unquote(parts.password) if parts.password is not None else \
        environ.get("BGBOARD_RELAY_PASSWORD")
    if password and not user:
        raise ValueError("the broker URL has a password but no user")
    return Broker(parts.hostname, port, prefix, scheme == "mqtts", user or None, password)


def check_name(name: str) -> str:
    """A board's NAME, or ValueError: it is a topic level and a file name in the hall."""
    if not LEVEL.fullmatch(name) or name in (".", ".."):
        raise ValueError(f"--board {name!r}: a board's name is letters, digits, '_', '-' and "
                         "'.' (it names the board's topic and its file in the hall)")
    return name


def add_options(parser, wait: bool = False) -> None:
    """--relay URL and --board NAME (and with `wait`, --relay-wait) on a command's parser."""
    parser.add_argument("--relay", metavar="URL",
                        help="publish every committed action to this MQTT broker: "
                             "mqtt://[USER:PASSWORD@]HOST[:PORT]/PREFIX (mqtts:// for TLS; "
                             "or the user and password in BGBOARD_RELAY_USER and "
                             "BGBOARD_RELAY_PASSWORD; docs/tournaments.md)")
    parser.add_argument("--board", metavar="NAME", help="this board's name under the relay")
    if wait:
        parser.add_argument("--relay-wait", type=float, default=RELAY_WAIT, metavar="S",
                            help="seconds to wait at the end for the broker to acknowledge "
                                 f"everything (default {RELAY_WAIT:g})")


def relay_target(url: str | None, board: str | None) -> Broker | None:
    """The broker of --relay URL with --board NAME checked; None without --relay."""
    if url is None:
        if board is not None:
            raise ValueError("--board names a board for --relay: give --relay URL too")
        return None
    broker = parse_url(url)
    if board is None:
        raise ValueError("--relay needs --board NAME (the board's name in the hall)")
    check_name(board)
    return broker


def client(broker: Broker, role: str):
    """A paho-mqtt client (MQTT 5, so that a refused publish is told back) for `broker`, with
    its credentials and TLS set and reconnect delays of 0.2 s up to 5 s; `role` starts its
    client id. Call `client.connect_async(broker.host, broker.port)` and `loop_start()`."""
    try:
        import paho.mqtt.client as mqtt
    except ImportError as exc:
        raise ValueError("the relay needs paho-mqtt: pip install 'bgboard[pi]' (boards) or "
                         "'bgboard[web]' (the hall)") from exc
    made = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                       client_id=f"{role}-{secrets.token_hex(4)}", protocol=mqtt.MQTTv5)
    if broker.user:
        made.username_pw_set(broker.user, broker.password)
    if broker.tls:
        made.tls_set(ca_certs=os.environ.get("BGBOARD_RELAY_CA"))
    made.reconnect_delay_set(0.2, 5)
    made.max_inflight_messages_set(100)
    return made
