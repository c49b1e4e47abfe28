"""A real Mosquitto broker for the relay's tests, on a free loopback port, that can be killed
(SIGKILL) and started again on the same port; optionally with a password file and an ACL, or
with TLS (a self-signed certificate for 127.0.0.1 made by openssl, its own CA)."""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
OPENSSL = shutil.which("openssl")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mosquitto:
    """The broker in `folder`; with `users` ({name: password}) and `acl` (the ACL file's
    text), anonymous clients are refused."""

    def __init__(self, folder: Path, users: dict[str, str] | None = None,
                 acl: str | None = None, tls: bool = False) -> None:
        self.port = free_port()
        self.folder = folder
        self.scheme = "mqtts" if tls else "mqtt"
        self.certificate = folder / "broker.crt"
        # as root, mosquitto would turn into the user "mosquitto", who cannot read tmp_path
        lines = [f"listener {self.port} 127.0.0.1", "persistence false",
                 f"user {getpass.getuser()}"]
        if users:
            passwords = folder / "passwords"
            passwords.touch()
            for user, password in users.items():
                subprocess.run([PASSWD, "-b", str(passwords), user, password], check=True)
            lines += [f"password_file {passwords}", "allow_anonymous false"]
        else:
            lines.append("allow_anonymous true")
        if acl:
            (folder / "acl").write_text(acl)
            lines.append(f"acl_file {folder / 'acl'}")
        if tls:
            key = folder / "broker.key"
            subprocess.run([OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                            "2", "-subj", "/CN=127.0.0.1", "-addext",
                            "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out",
                            str(self.certificate)], check=True, capture_output=True)
            lines += [f"certfile {self.certificate}", f"keyfile {key}"]
        self.config = folder / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen | None = None
        self.start()

    def url(self, prefix: str = "club", auth: str = "") -> str:
        return f"{self.scheme}://{auth + '@' if auth else ''}127.0.0.1:{self.port}/{prefix}"

    def start(self) -> None:
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start")

    def kill(self) -> None:
        """SIGKILL: the broker loses every message it held (persistence is off)."""
        self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.kill()
