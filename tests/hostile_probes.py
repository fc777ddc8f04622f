"""The probes of benchmarks/hostile_writes.py, for tests: each builds its hostile repository in
a temporary folder, runs the real command line and says (passed, what it saw)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path

_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "hostile_writes.py"


def hostile_probe(name: str) -> Callable[[Path], tuple[bool, str]]:
    spec = importlib.util.spec_from_file_location("hostile_writes", _PATH)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.PROBES[name]
