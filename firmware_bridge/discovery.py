"""Finding the board's serial port by USB vendor and product ID, with pyserial's list_ports."""

from __future__ import annotations

# Boards and USB-serial chips the firmware runs behind (ATmega328P: Uno, Nano and clones).
USB_IDS = {
    (0x2341, 0x0043): "Arduino Uno",
    (0x2341, 0x0001): "Arduino Uno (early)",
    (0x2A03, 0x0043): "Arduino Uno (arduino.org)",
    (0x1A86, 0x7523): "CH340 (Nano clones)",
    (0x0403, 0x6001): "FTDI FT232R (Nano)",
    (0x10C4, 0xEA60): "CP2102",
}


def find_port() -> str:
    """The device path of the first attached board with a known USB ID."""
    from serial.tools import list_ports

    for port in sorted(list_ports.comports(), key=lambda p: p.device):
        if (port.vid, port.pid) in USB_IDS:
            return port.device
    known = ", ".join(f"{v:04x}:{p:04x}" for v, p in USB_IDS)
    raise OSError(f"no bgboard microcontroller on USB (looked for {known}); give the port")
