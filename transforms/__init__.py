"""The passes, in the order the engine runs them on every file.

Installed as ``trncodemod.transforms`` (see ``pyproject.toml``): the folder is ``transforms/`` in
the repository, but no top-level ``transforms`` package is ever installed.

Order matters where one pass's output is another's input: device placement first (later passes
find ``.to(device)`` and training loops in their migrated form); dtype and optimizer swaps next;
padding; then the ``.item()`` hoist, which may put logging into step closures; the step marker
last, so that it lands after the optimizer step in its final form.
"""

from __future__ import annotations

from trncodemod.transforms.buckets import PadToBuckets
from trncodemod.transforms.device import DevicePlacement
from trncodemod.transforms.float64 import Float64ToFloat32
from trncodemod.transforms.item_hoist import ItemHoist
from trncodemod.transforms.optimizer import FusedOptimizers
from trncodemod.transforms.step_marker import StepMarker

PASSES = (
    DevicePlacement,
    Float64ToFloat32,
    FusedOptimizers,
    PadToBuckets,
    ItemHoist,
    StepMarker,
)

__all__ = ["PASSES"]
