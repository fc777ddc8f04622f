"""A synthetic monorepo for the benchmark: thousands of files, most of them not training code.

Deterministic for a given seed. Three kinds of file, in the proportions a large ML repository has:
plain Python (configuration, I/O, CLI helpers), PyTorch library code that defines models and
layers but trains nothing, and GPU training scripts (the examples and golden inputs of this
repository with renamed identifiers and varied sizes).
"""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLAIN = '''\
"""Helpers for {name}: parsing, validation and reporting."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field


@dataclass
class {cls}Config:
    name: str = "{name}"
    retries: int = {n}
    tags: list[str] = field(default_factory=list)

    def validate(self) -> None:
        if self.retries < 0:
            raise ValueError(f"retries must be >= 0, got {{self.retries}}")


def load_{name}(path: str) -> {cls}Config:
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    config = {cls}Config(**data)
    config.validate()
    return config
'''

PLAIN_FUNC = '''

def step_{name}_{i}(values: list[int], scale: int = {n}) -> dict[str, int]:
    """Summarise {name} values (variant {i})."""
    total = 0
    for index, value in enumerate(values):
        if value % {m} == 0:
            total += value * scale
        elif index > {n}:
            total -= value
    return {{"total": total, "count": len(values), "env": len(os.environ)}}
'''

MODEL = '''\
"""Layers for {name}."""
import torch
from torch import nn
import torch.nn.functional as F


class {cls}Block(nn.Module):
    def __init__(self, width: int = {n}) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.proj = nn.Linear(width, width * 4)
        self.out = nn.Linear(width * 4, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.out(F.gelu(self.proj(self.norm(x))))
'''

MODEL_LAYER = """

class {cls}Head{i}(nn.Module):
    def __init__(self, width: int, classes: int = {m}) -> None:
        super().__init__()
        self.fc = nn.Linear(width, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x.mean(dim=1))
"""


def _training_templates() -> list[str]:
    sources = [p for p in sorted((ROOT / "examples").glob("*.py"))]
    sources += [p for p in sorted((ROOT / "golden").rglob("*.in.py")) if p.stat().st_size > 300]
    return [p.read_text("utf-8") for p in sources]


def generate(folder: Path, files: int, training_share: float, seed: int = 0) -> dict[str, int]:
    rng = random.Random(seed)
    templates = _training_templates()
    counts = {"plain": 0, "model": 0, "training": 0}
    n_train = round(files * training_share)
    kinds = ["training"] * n_train + [
        "plain" if rng.random() < 0.7 else "model" for _ in range(files - n_train)
    ]
    rng.shuffle(kinds)
    for index, kind in enumerate(kinds):
        name = f"mod{index}"
        cls = f"M{index}"
        n, m = rng.randint(2, 64), rng.randint(3, 11)
        if kind == "plain":
            text = PLAIN.format(name=name, cls=cls, n=n) + "".join(
                PLAIN_FUNC.format(name=name, i=i, n=n, m=m) for i in range(rng.randint(2, 12))
            )
        elif kind == "model":
            text = MODEL.format(name=name, cls=cls, n=n) + "".join(
                MODEL_LAYER.format(cls=cls, i=i, m=m) for i in range(rng.randint(1, 6))
            )
        else:
            text = templates[index % len(templates)]
            text = text.replace("def train", f"def train_{index}").replace("Net", f"Net{index}")
            # Every file distinct, as in a real tree: the cache is keyed by content, and copies
            # would be answered from it within the first run.
            text = f"# {kind}_{index}.py\n{text}"
        path = folder / f"pkg{index % 37}" / f"{kind}_{index}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), "utf-8")
        counts[kind] += 1
    return counts
