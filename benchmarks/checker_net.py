"""The PyTorch half of benchmarks/train_checkers.py: the column net, its training and export.

The net reads one 112 x 32 column patch (base at the top) beside what that place looks like
bare (`vision.columns.references`: six channels) and gives two outputs: the count of checkers
there (0..15) and which set they belong to (light, dark). Training learns from the
cached patches with recolouring (channel swaps keep which set is lighter), brightness and
contrast changes, mirroring and shifts of a pixel or two, and checkpoints every epoch.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import torch
from checkpoints import keep, resume  # beside this script
from torch import nn

from bgboard.vision.dice import net_input

BATCH = 256
CHANNELS = 6  # the patch (BGR) and what its place looks like bare (BGR)


def block(c_in: int, c_out: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride=stride, padding=1, bias=False),
                         nn.BatchNorm2d(c_out), nn.ReLU())


class ColumnNet(nn.Module):
    """Count (16 classes) and set (2 classes) of the checkers in one column patch, seen beside
    its bare reference."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(  # both first layers halve the patch: 28 x 8 cells
            block(CHANNELS, 24, stride=2), block(24, 32, stride=2), block(32, 48),
            nn.MaxPool2d(2), block(48, 64))
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(64 * 14 * 4, 96), nn.ReLU(),
                                  nn.Dropout(0.2))
        self.count = nn.Linear(96, 16)
        self.colour = nn.Linear(96, 2)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.head(self.features(x))
        return self.count(h), self.colour(h)


def augment(batch: np.ndarray, rng) -> np.ndarray:
    """Recoloured, relit, mirrored and shifted copies of uint8 patches beside their references
    (N, H, W, 6), both changed alike."""
    order = rng.permutation(3)
    out = batch[:, :, :, [*order, *(order + 3)]].astype(np.float32)
    gain = rng.uniform(0.7, 1.3, (len(out), 1, 1, 1)).astype(np.float32)
    shift = rng.uniform(-25, 25, (len(out), 1, 1, 1)).astype(np.float32)
    out = out * gain + shift
    mirror = rng.random(len(out)) < 0.5
    out[mirror] = out[mirror, :, ::-1]
    dy, dx = rng.integers(-2, 3, 2)
    out = np.roll(out, (int(dy), int(dx)), (1, 2))
    return np.clip(out, 0, 255).astype(np.uint8)


def tensors(patches: np.ndarray, counts: np.ndarray):
    x = torch.from_numpy(net_input(patches))
    n = torch.from_numpy(np.abs(counts).astype(np.int64).clip(0, 15))
    dark = torch.from_numpy((counts < 0).astype(np.int64))
    return x, n, dark


def train(patches: np.ndarray, counts: np.ndarray, epochs: int, cache: Path, out: Path) -> None:
    """Train (resuming from cache/<out's name>.pt), then export to `out` as ONNX."""
    torch.manual_seed(0)
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    net = ColumnNet()
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=epochs * (
        len(patches) // BATCH + 1))
    checkpoint = cache / f"{out.stem}.pt"
    first = resume(checkpoint, net, opt, sched)
    for epoch in range(first, epochs):
        t, total, right, seen = time.time(), 0.0, 0, 0
        net.train()
        for idx in np.array_split(rng.permutation(len(patches)), len(patches) // BATCH + 1):
            x, n, dark = tensors(augment(patches[idx], rng), counts[idx])
            count_logits, colour_logits = net(x)
            loss = nn.functional.cross_entropy(count_logits, n)
            occupied = n > 0
            if occupied.any():
                loss = loss + 0.5 * nn.functional.cross_entropy(colour_logits[occupied],
                                                                dark[occupied])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int((count_logits.argmax(1) == n).sum())
            seen += len(idx)
        keep(checkpoint, epoch, net, opt, sched)
        print(f"epoch {epoch}: loss {total / seen:.4f}, counts right {right / seen:.4f} "
              f"(augmented), {time.time() - t:.0f} s", flush=True)
    export(net, out)


def export(net: ColumnNet, out: Path) -> None:
    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(1, CHANNELS, 112, 32), str(out), input_names=["patch"],
                      output_names=["count", "colour"], dynamic_axes={"patch": {0: "n"}},
                      opset_version=13, dynamo=False)
    print(f"wrote {out}")


def score(patches: np.ndarray, counts: np.ndarray, looks: np.ndarray, model: Path) -> None:
    """Patch accuracy of the exported net by look (OpenCV DNN, as bgboard runs it)."""
    import cv2

    net = cv2.dnn.readNetFromONNX(str(model))
    right = np.zeros(len(patches), bool)
    for start in range(0, len(patches), BATCH):
        net.setInput(net_input(patches[start:start + BATCH]))
        count_logits, colour_logits = net.forward(["count", "colour"])
        n = count_logits.argmax(1)
        sign = np.where(colour_logits.argmax(1) == 1, -1, 1)
        right[start:start + BATCH] = n * sign == counts[start:start + BATCH]
    print("| look | columns right |\n|---|---|")
    for name in sorted(set(looks)):
        mine = looks == name
        print(f"| {name} | {100 * right[mine].mean():.2f}% ({right[mine].sum()}/{mine.sum()}) |")
