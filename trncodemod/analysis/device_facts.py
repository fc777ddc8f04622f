"""What the evaluator of the migrated program takes as true on a backend (issue 34): the values
of calls that decide where training runs, the device strings and calls that are the
accelerator, what cuts the step, the wrappers and kernels the target cannot run. Data in
``data/device_facts.toml``, one table per backend ("xla", "neuron"), each with its source."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_FACTS = Path(__file__).resolve().parent.parent / "data" / "device_facts.toml"


@dataclass(frozen=True)
class Facts:
    backend: str
    false_calls: frozenset[str]
    false_attributes: frozenset[str]  # `torch.has_mps`
    true_calls: frozenset[str]
    zero_calls: frozenset[str]
    count_calls: frozenset[str]  # counts of processes or devices, at least 1 on the target
    accelerator_calls: frozenset[str]
    accelerator_strings: frozenset[str]
    cut_calls: frozenset[str]
    cut_loaders: frozenset[str]
    needs_cut: bool
    unsupported_wrappers: frozenset[str]
    owning_frameworks: frozenset[str]
    other_device_modules: frozenset[str]
    # Objects that cannot live on the device (measured on XLA; none claimed for neuron).
    recurrent_modules: frozenset[str]
    packing_calls: frozenset[str]
    sparse_calls: frozenset[str]
    sparse_methods: frozenset[str]
    sparse_prefixes: frozenset[str]
    quantizing_configs: frozenset[str]
    quantizing_flags: frozenset[str]
    model_preparers: frozenset[str]
    # Library calls that raise on the backend (a name ending in "." covers those under it).
    broken_calls: frozenset[str]

    def broken(self, name: str) -> bool:
        """Whether the library call of qualified name ``name`` raises on the backend."""
        return any(
            name.startswith(call) if call.endswith(".") else name == call
            for call in self.broken_calls
        )


@cache
def facts_for(backend: str) -> Facts:
    """The facts of a backend ("xla" or "neuron")."""
    with _FACTS.open("rb") as handle:
        row = tomllib.load(handle)["backends"][backend]
    return Facts(
        backend=backend,
        needs_cut=bool(row.pop("needs_cut")),
        **{key: frozenset(value) for key, value in row.items()},
    )
