"""The PyTorch half of benchmarks/train_checkers.py: the column net, its training and export.

The net reads one 112 x 32 column patch (base at the top) beside what that place looks like
bare (`vision.columns.references`: six channels) and gives two outputs: the count of checkers
there (0..15) and which set they belong to (light, dark). Training learns from the
cached patches with recolouring (channel swaps keep which set is lighter), brightness and
contrast changes, mirroring and shifts of a pixel or two, drawn on the device that trains
(the CPU, or a GPU: `train_checkers.py train --device cuda`), and checkpoints every epoch.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from bgboard.benchmarks.checkpoints import keep, resume
from bgboard.vision.models import net_input

BATCH = 256
CHANNELS = 6  # the patch (BGR) and what its place looks like bare (BGR)
WIDTHS = (24, 32, 48, 64)  # the four convolutions' channels (the shipped net)


def block(c_in: int, c_out: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride=stride, padding=1, bias=False),
                         nn.BatchNorm2d(c_out), nn.ReLU())


class ColumnNet(nn.Module):
    """Count (16 classes) and set (2 classes) of the checkers in one column patch, seen beside
    its bare reference."""

    def __init__(self, widths: tuple[int, int, int, int] = WIDTHS) -> None:
        super().__init__()
        a, b, c, d = widths
        self.features = nn.Sequential(  # both first layers halve the patch: 28 x 8 cells
            block(CHANNELS, a, stride=2), block(a, b, stride=2), block(b, c),
            nn.MaxPool2d(2), block(c, d))
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(d * 14 * 4, 96), nn.ReLU(),
                                  nn.Dropout(0.2))
        self.count = nn.Linear(96, 16)
        self.colour = nn.Linear(96, 2)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.head(self.features(x))
        return self.count(h), self.colour(h)


ORDERS = [(*o, *(np.array(o) + 3)) for o in itertools.permutations(range(3))]


def augment(batch: torch.Tensor, gen: torch.Generator, rng) -> torch.Tensor:
    """Recoloured, relit, mirrored and shifted copies of uint8 patches beside their references
    (N, H, W, 6), both changed alike, as the net takes them (`net_input`: N, 6, H, W float
    centred on zero). What varies by patch is drawn on the patches' device (`gen`), the
    batch's colour order and shift on the host (`rng`): a GPU never waits for the CPU."""
    n, device = len(batch), batch.device
    order = ORDERS[int(rng.integers(len(ORDERS)))]
    x = torch.stack([batch[..., c] for c in order], 3).float()
    gain, shift, mirror = torch.rand(3, n, 1, 1, 1, generator=gen, device=device)
    x = x * (gain * 0.6 + 0.7) + (shift * 50 - 25)
    x = torch.where(mirror < 0.5, x.flip(2), x)
    dy, dx = (int(v) for v in rng.integers(-2, 3, 2))
    x = torch.roll(x, (dy, dx), (1, 2)).clamp(0, 255).floor()
    return x.permute(0, 3, 1, 2) * (1 / 255) - 0.5


def losses(count_logits: torch.Tensor, colour_logits: torch.Tensor, signed: torch.Tensor
           ) -> torch.Tensor:
    """The count's cross-entropy plus half the set's, the set judged only where there are
    checkers (no branch on the data: nothing waits for the device)."""
    n = signed.abs().clamp(0, 15).long()
    occupied = (n > 0).float()
    colour = nn.functional.cross_entropy(colour_logits, (signed < 0).long(), reduction="none")
    return (nn.functional.cross_entropy(count_logits, n)
            + 0.5 * (colour * occupied).sum() / occupied.sum().clamp(min=1))


def train(patches: np.ndarray, counts: np.ndarray, epochs: int, cache: Path, out: Path,
          device: str = "cpu", widths: tuple[int, int, int, int] = WIDTHS, threads: int = 1,
          seed: int = 0) -> None:
    """Train on `device` (the patches are moved there whole; resuming from cache/<out's
    name>.pt) with `threads` CPU threads, then export to `out` as ONNX. `seed` draws the
    net's first weights, the batches and their changes: nets of one recipe and two seeds slip
    on different rows."""
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    net = ColumnNet(widths).to(device)

    def scored(outputs: tuple[torch.Tensor, torch.Tensor], signed: torch.Tensor) -> tuple:
        count_logits, colour_logits = outputs
        right = (count_logits.argmax(1) == signed.abs().clamp(0, 15)).sum()
        return losses(count_logits, colour_logits, signed), right

    fit(net, torch.from_numpy(patches).to(device), torch.from_numpy(counts).to(device), epochs,
        cache / f"{out.stem}.pt", scored, seed)
    export(net.cpu(), out)


def fit(net: nn.Module, data: torch.Tensor, labels: torch.Tensor, epochs: int,
        checkpoint: Path, scored, seed: int, peak: float = 3e-3) -> None:
    """Train `net` on the uint8 rows `data` beside their references (changed by `augment`)
    against `labels`, on their device: AdamW with a one-cycle rate rising to `peak`, BATCH
    rows a step, `scored(outputs, labels)` giving a batch's loss and how many counts it read
    right; checkpointed at `checkpoint` every epoch, and resumed from it."""
    device = data.device
    rng = np.random.default_rng(seed)
    gen = torch.Generator(device).manual_seed(seed)
    steps = len(data) // BATCH + 1
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, peak, total_steps=epochs * steps)
    first = resume(checkpoint, net, opt, sched)
    for epoch in range(first, epochs):
        t, (total, right) = time.time(), torch.zeros(2, device=device)
        net.train()
        for idx in torch.randperm(len(data), generator=gen, device=device).tensor_split(steps):
            loss, hits = scored(net(augment(data[idx], gen, rng)), labels[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.detach() * len(idx)
            right += hits
        keep(checkpoint, epoch, net, opt, sched)
        print(f"epoch {epoch}: loss {float(total) / len(data):.4f}, counts right "
              f"{float(right) / len(data):.4f} (augmented), {time.time() - t:.0f} s", flush=True)


class PileNet(nn.Module):
    """The pile counter (vision.piles): the count (16 classes) of the checkers in a tall
    row's patch at twice the column net's pixels, beside its bare reference enlarged; the
    column net's layers with one more at the start."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            block(CHANNELS, 16, stride=2), block(16, 24, stride=2), block(24, 32, stride=2),
            block(32, 48), nn.MaxPool2d(2), block(48, 64))
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(64 * 14 * 4, 96), nn.ReLU(),
                                  nn.Dropout(0.2), nn.Linear(96, 16))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


def export(net: nn.Module, out: Path, size: tuple[int, int] = (112, 32),
           outputs: tuple[str, ...] = ("count", "colour")) -> None:
    """`net` as ONNX at `out`, its input "patch" (N, CHANNELS, *size)."""
    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(1, CHANNELS, *size), str(out), input_names=["patch"],
                      output_names=list(outputs), dynamic_axes={"patch": {0: "n"}},
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
