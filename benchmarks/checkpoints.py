"""Training checkpoints shared by the training scripts: the net, its optimiser and its rate
schedule saved after every epoch, and a run that finds them carries on from the next."""

from __future__ import annotations

from pathlib import Path

import torch


def resume(path: Path, net, opt, sched) -> int:
    """Load the checkpoint at `path` into the parts, if there is one; the epoch to start at."""
    if not path.exists():
        return 0
    state = torch.load(path)
    net.load_state_dict(state["net"])
    opt.load_state_dict(state["opt"])
    sched.load_state_dict(state["sched"])
    return state["epoch"] + 1


def keep(path: Path, epoch: int, net, opt, sched) -> None:
    """Save the parts after `epoch`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(),
                "epoch": epoch}, path)
