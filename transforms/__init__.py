"""The passes, in the order the engine runs them on every file.

Installed as ``trncodemod.transforms`` (see ``pyproject.toml``): the folder is ``transforms/`` in
the repository, but no top-level ``transforms`` package is ever installed.

Order matters where one pass's output is another's input: device placement first (later passes
find ``.to(device)`` and training loops in their migrated form), the step marker last (it goes
after the optimizer step that the optimizer pass may have rewritten).
"""

from __future__ import annotations

from trncodemod.transforms.device import DevicePlacement

PASSES = (DevicePlacement,)

__all__ = ["PASSES"]
