"""The gpio backend: gpiozero devices on the Pi's own pins.

Single-colour point LEDs on a 74HC595 chain (three output pins: data, clock, latch), the
cube on an AngularServo, buttons as Buttons with debounce. Any non-black colour lights an
LED; the meanings' patterns tell them apart. gpiozero picks the pin factory (lgpio on a
Pi 5; set Device.pin_factory to a MockFactory to run it anywhere).
"""

from __future__ import annotations

import atexit
import math
import threading
import warnings
from collections.abc import Sequence

from gpiozero import AngularServo, Button, DigitalOutputDevice
from gpiozero.exc import BadPinFactory, GPIOZeroError, PinFactoryFallback

from .backend import RGB, Backend
from .config import Config
from .layout import COUNT

SETTLE = 0.3
"""Seconds the servo keeps its last pulse to arrive before the pulse stops."""


class GpioBackend(Backend):
    """LEDs, cube servo and buttons wired to GPIO pins as `config` says."""

    def __init__(self, config: Config) -> None:
        super().__init__()
        self._config = config
        self._devices: list = []
        self._latch = self._servo = None
        self._bits: list[bool] | None = None
        self._angle: float | None = None
        self._sweep: threading.Thread | None = None
        self._stop = threading.Event()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", PinFactoryFallback)  # a failure says it all
                self._open()
        except GPIOZeroError as exc:
            self.close()
            reason = str(exc) or type(exc).__name__
            if isinstance(exc, BadPinFactory):
                reason += " (not a Raspberry Pi? try --backend sim)"
            raise OSError(f"gpio: {reason}") from None
        atexit.register(self.close)

    def show(self, leds: Sequence[RGB]) -> None:
        """Light the LEDs whose colour is not black; shifts only when a bit changes."""
        if len(leds) != COUNT:
            raise ValueError(f"a frame needs {COUNT} LED colours, got {len(leds)}")
        bits = [False] * self._config.leds.registers * 8
        for output, colour in zip(self._config.leds.outputs, leds, strict=True):
            bits[output] = any(colour)
        if bits != self._bits:
            self._shift(bits)

    def turn_cube(self, degrees: float) -> None:
        """Sweep the servo to `degrees` at the configured speed in the background, then let go."""
        self._halt_sweep()
        self._stop = threading.Event()
        self._sweep = threading.Thread(target=self._sweep_to, args=(degrees, self._stop),
                                       daemon=True)
        self._sweep.start()

    def confirmed(self, timeout: float = 2.0) -> bool:
        """True once the cube has finished turning (the LEDs are set at once)."""
        if self._sweep is not None:
            self._sweep.join(timeout)
            return not self._sweep.is_alive()
        return True

    def close(self) -> None:
        """All LEDs off, the servo pulse stopped, every pin released (also run at exit)."""
        atexit.unregister(self.close)
        self._halt_sweep()
        if self._latch is not None:
            self._shift([False] * self._config.leds.registers * 8)
        if self._servo is not None:
            self._servo.detach()
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()
        self._latch = self._servo = None

    def _open(self) -> None:
        """Claim every pin and shift all LEDs off (a 74HC595 wakes up with random outputs)."""
        leds, servo, buttons = self._config.leds, self._config.servo, self._config.buttons
        self._data, self._clock, self._latch = (
            self._own(DigitalOutputDevice(p)) for p in (leds.data, leds.clock, leds.latch)
        )
        self._servo = self._own(AngularServo(
            servo.pin, initial_angle=None, min_angle=servo.min_angle,
            max_angle=servo.max_angle, min_pulse_width=servo.min_pulse,
            max_pulse_width=servo.max_pulse,
        ))
        for name, pin in buttons.pins.items():
            button = Button(pin, bounce_time=buttons.bounce or None, hold_time=buttons.hold)
            self._wire(name, self._own(button))
        self._shift([False] * leds.registers * 8)

    def _own(self, device):
        self._devices.append(device)
        return device

    def _wire(self, name: str, button) -> None:
        """Press events; confirm reports on release, or "menu" once held for hold_s."""
        if name != "confirm":
            button.when_pressed = lambda: self._pressed(name)
            return
        held = threading.Event()

        def on_held() -> None:
            held.set()
            self._pressed("menu")

        def on_released() -> None:
            if not held.is_set():
                self._pressed("confirm")
            held.clear()

        button.when_held = on_held
        button.when_released = on_released

    def _shift(self, bits: list[bool]) -> None:
        """Clock the bits into the chain, last output first, then latch them onto the LEDs."""
        data, clock, latch = self._data.pin, self._clock.pin, self._latch.pin
        for bit in reversed(bits):
            data.state = bit
            clock.state = True
            clock.state = False
        latch.state = True
        latch.state = False
        self._bits = bits

    def _sweep_to(self, target: float, stop: threading.Event) -> None:
        """Step the angle once per servo frame at `speed`; hold SETTLE s; stop the pulse."""
        frame = self._servo.frame_width
        step = self._config.servo.speed * frame
        here = target if self._angle is None else self._angle
        while True:
            gap = target - here
            here = target if abs(gap) <= step else here + math.copysign(step, gap)
            self._servo.angle = self._angle = here
            if here == target or stop.wait(frame):
                break
        if not stop.wait(SETTLE):
            self._servo.detach()

    def _halt_sweep(self) -> None:
        self._stop.set()
        if self._sweep is not None:
            self._sweep.join()
