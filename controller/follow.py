"""From frames to the session: the one per-frame loop that record, play and demo share, and
the session's settings that follow from a calibration (the bridge between calibration/ and
the turns core, which imports only the engine)."""

from __future__ import annotations

from ..calibration.geometry import white_right_high
from .turns.events import EventBus
from .turns.session import Session, Settings
from .turns.stabilizer import Stabilizer


class Follower:
    """The per-frame loop: each Observation is the session's evidence, goes through the
    stabiliser (a new stable view goes to the session), and the session's clock ticks."""

    def __init__(self, session: Session, window: int = 5) -> None:
        self.session = session
        self.stabilizer = Stabilizer(window)

    def frame(self, obs: dict, t: float) -> None:
        """One readable frame's Observation, at time `t` (seconds)."""
        session = self.session
        session.observe(obs)
        view = self.stabilizer.feed(obs, t)
        if view is not None:
            session.view(view)
        session.tick(t)


def settings_for(calibration: dict, **changes) -> Settings:
    """Session settings that follow from a calibration file's dict."""
    geometry = calibration.get("geometry", {})
    return Settings(white_right_high=white_right_high(calibration["corners_px"]),
                    bar_width=geometry.get("bar_width", 0.07), **changes)


def field_status(bus: EventBus, change) -> None:
    """Tell everyone that the field moved (a vision.steady Change): a status event of the
    part "field", ok when the corners were found again."""
    from ..vision.steady import describe

    detail = describe(change)
    bus.emit("status", f"board: {detail}", part="field", ok=change.calibration is not None,
             detail=detail)
