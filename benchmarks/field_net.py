"""The PyTorch half of benchmarks/train_field_corners.py: the field finder's nets, their
losses, training (checkpointed every epoch, resumable) and export to ONNX.

The finder shrinks its SIZE x SIZE input 32 times (seeing the whole board at once), then grows
back to an 8-pixel grid with what each finer level saw (a small U-Net), and gives four maps:
corner score, bar-end score (both 0-1) and the x and y of a mark within its cell (0-1). The
refiner looks at one corner's PATCH x PATCH view and says where the corner is in it.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from bgboard.benchmarks.checkpoints import keep, resume
from bgboard.vision import field_finder as ff

BATCH = 16


def conv(c_in: int, c_out: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride, dilation, dilation, bias=False),
                         nn.BatchNorm2d(c_out), nn.ReLU())


class FieldNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.down = nn.ModuleList([conv(3, 16, 2), conv(16, 24, 2), conv(24, 32, 2),
                                   conv(32, 48, 2), conv(48, 64, 2)])
        self.middle = nn.Sequential(conv(64, 64, dilation=2), conv(64, 64, dilation=4))
        self.up = nn.ModuleList([conv(64 + 48, 48), conv(48 + 32, 32)])
        self.head = nn.Conv2d(32, 4, 1)
        nn.init.constant_(self.head.bias[:2], -3.0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        skips = []
        for layer in self.down:
            x = layer(x)
            skips.append(x)
        x = self.middle(x)
        for layer, skip in zip(self.up, reversed(skips[2:4]), strict=True):
            x = nn.functional.interpolate(x, scale_factor=2.0, mode="nearest")
            x = layer(torch.cat([x, skip], 1))
        return torch.sigmoid(self.head(x))


class CornerNet(nn.Module):
    """The refiner: a corner's view (`field_finder.corner_patch`) to the corner's (u, v)."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(conv(3, 16, 2), conv(16, 32, 2), conv(32, 48, 2),
                                      conv(48, 64, 2), nn.Flatten())
        cells = (ff.PATCH // 16) ** 2
        self.head = nn.Sequential(nn.Linear(64 * cells, 64), nn.ReLU(), nn.Linear(64, 2))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


def corner_loss(out: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """How far the corner is put from where it is, in point widths (smooth L1)."""
    return nn.functional.smooth_l1_loss(out, target, beta=0.1)


def loss(out: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Focal loss on the two score maps (peaks are few), plus the offsets at the peaks."""
    score, truth = out[:, :2].clamp(1e-4, 1 - 1e-4), target[:, :2]
    peak = truth.eq(1).float()
    focal = -(peak * (1 - score) ** 2 * torch.log(score)
              + (1 - peak) * (1 - truth) ** 4 * score ** 2 * torch.log(1 - score)).sum()
    mask = target[:, 4:5]
    offsets = (mask * (out[:, 2:4] - target[:, 2:4]).abs()).sum()
    return (focal + offsets) / peak.sum().clamp(min=1)


def train(items: list, sample, epochs: int, checkpoint: Path, out: Path,
          refiner: bool = False, init: Path | None = None) -> None:
    """Train the finder (or the `refiner`) on `items` (image, corners, bar ends), a fresh
    `sample` of each per epoch; from the net of the checkpoint `init` (fine-tuning, at a
    third of the learning rate) or from scratch."""
    torch.manual_seed(0)
    torch.set_num_threads(1)
    net = CornerNet() if refiner else FieldNet()
    if init:
        net.load_state_dict(torch.load(init)["net"])
    measure = corner_loss if refiner else loss
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    steps = epochs * -(-len(items) // BATCH)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 1e-3 if init else 3e-3, total_steps=steps)
    first = resume(checkpoint, net, opt, sched)
    rng = np.random.default_rng(first)
    for epoch in range(first, epochs):
        t, total = time.time(), 0.0
        net.train()
        order = rng.permutation(len(items))
        for i in range(0, len(order), BATCH):
            xs, ys = zip(*(sample(*items[j], rng) for j in order[i:i + BATCH]), strict=True)
            value = measure(net(torch.from_numpy(np.stack(xs))),
                            torch.from_numpy(np.stack(ys)))
            opt.zero_grad()
            value.backward()
            opt.step()
            sched.step()
            total += float(value.detach()) * len(xs)
        keep(checkpoint, epoch, net, opt, sched)
        print(f"epoch {epoch}: loss {total / len(items):.4f}, {time.time() - t:.0f} s",
              flush=True)
    export(net, out, ff.PATCH if refiner else ff.SIZE)


def export(net: nn.Module, out: Path, size: int) -> None:
    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(1, 3, size, size), str(out), input_names=["image"],
                      output_names=["marks"], opset_version=13, dynamo=False,
                      dynamic_axes={"image": {0: "n"}, "marks": {0: "n"}})
    print(f"wrote {out}")
