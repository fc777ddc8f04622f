"""The API table of the ``xla-to-neuron`` pass, read from ``data/xla_to_neuron.toml``: the
torch_xla calls and names with their TorchNeuron equivalent and the rule that reports each, the
APIs with no equivalent (blockers, with the page to read), and the environment variables. Data
only, as TorchFix keeps its symbol tables; ``xla_to_neuron.py`` interprets it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources

from trncodemod.transforms.xla_to_neuron_rules import BY_CODE

from trncodemod.findings import Rule

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


@dataclass(frozen=True)
class CallRow:
    names: frozenset[str]
    rule: type[Rule]
    params: tuple[tuple[str, str], ...]
    to: str
    imports: tuple[str, ...]
    when: str
    distributed: str | None
    guard: str
    guard_imports: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class NameRow:
    name: str
    to: str
    rule: type[Rule]
    why: str


@dataclass(frozen=True)
class Blocker:
    prefix: str
    what: str
    instead: str
    page: str


@dataclass(frozen=True)
class NeuronTable:
    calls: tuple[CallRow, ...]
    names: tuple[NameRow, ...]
    blockers: tuple[Blocker, ...]
    env: dict[str, bool]  # name -> is a bf16 switch

    def blocker(self, qualified: str) -> Blocker:
        return next(
            row
            for row in self.blockers
            if qualified == row.prefix or qualified.startswith(row.prefix + ".")
        )


@cache
def neuron_table() -> NeuronTable:
    text = resources.files("trncodemod").joinpath("data/xla_to_neuron.toml").read_text("utf-8")
    data = tomllib.loads(text)
    calls = tuple(
        CallRow(
            names=frozenset(row["names"]),
            rule=BY_CODE[row["rule"]],
            params=tuple((name, how) for name, how in row["params"]),
            to=row["to"],
            imports=tuple(row.get("imports", ())),
            when=row.get("when", ""),
            distributed=row.get("distributed"),
            guard=row.get("guard", ""),
            guard_imports=tuple(row.get("guard_imports", ())),
            why=row["why"],
        )
        for row in data["calls"]
    )
    names = tuple(
        NameRow(row["name"], row["to"], BY_CODE[row["rule"]], row["why"]) for row in data["names"]
    )
    blockers = tuple(Blocker(**row) for row in data["blockers"])
    env = {row["name"]: bool(row.get("bf16", False)) for row in data["env"]}
    return NeuronTable(calls, names, blockers, env)
