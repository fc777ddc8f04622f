"""The optimizer mappings of the ``optimizer`` pass, read from ``data/optimizers.toml``: the target
classes with their signatures and defaults, the CUDA-only source classes and what maps onto what,
the unsupported optimizers, the Trainer's ``optim`` names, and the syncfree and fp32-state
classes the ``optimizer`` setting may swap in. Data only, as TorchFix keeps its symbol tables;
``optimizer.py`` and ``optimizer_arguments.py`` interpret it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# A `drop` value that lets the keyword go whatever its value.
ANY = "*"


@dataclass(frozen=True)
class Emit:
    expr: str
    module: str
    obj: str


@dataclass(frozen=True)
class TargetClass:
    name: str
    positional: tuple[str, ...]
    keywords: tuple[str, ...]
    defaults: dict[str, str]
    emit: Emit

    @property
    def parameters(self) -> tuple[str, ...]:
        return self.positional + self.keywords


@dataclass(frozen=True, eq=False)
class Source:
    library: str
    module: str
    classes: tuple[str, ...]
    signature: tuple[str, ...]
    target: str
    defaults: dict[str, str]
    drop: dict[str, tuple[str, ...]]
    notes: dict[str, str]
    switch: dict[str, str] = field(default_factory=dict)
    also: tuple[str, ...] = ()

    def matches(self, qualified: str) -> bool:
        return class_of(qualified, self.module, self.classes) is not None or qualified in self.also


def class_of(qualified: str, module: str, classes: tuple[str, ...]) -> str | None:
    """`module.Class` or `module.submodule.Class` for a class in ``classes``."""
    head, _, cls = qualified.rpartition(".")
    if cls not in classes:
        return None
    if head == module or (head.startswith(module + ".") and "." not in head[len(module) + 1 :]):
        return cls
    return None


def _source(row: dict) -> Source:
    drop = {k: tuple(v) if isinstance(v, list) else (v,) for k, v in row.get("drop", {}).items()}
    return Source(
        library=row["library"],
        module=row["module"],
        classes=tuple(row["classes"]),
        signature=tuple(row["signature"]),
        target=row["target"],
        defaults=row.get("defaults", {}),
        drop=drop,
        notes=row.get("notes", {}),
        switch=row.get("switch", {}),
        also=tuple(row.get("also", ())),
    )


@dataclass(frozen=True)
class Table:
    classes: dict[str, TargetClass]
    sources: tuple[Source, ...]
    unsupported: tuple[tuple[str, tuple[str, ...], str], ...]
    trainer: dict
    syncfree: dict[str, Emit]
    fp32_states: Source
    # torch.optim classes that read their state on the host every step without capturable=True,
    # and the torch versions where capturable=True was measured to step on XLA.
    host_reads: frozenset[str]
    capturable_torch: tuple[str, ...]


@cache
def load_table() -> Table:
    text = resources.files("trncodemod").joinpath("data/optimizers.toml").read_text("utf-8")
    data = tomllib.loads(text)
    classes = {
        name: TargetClass(
            name,
            tuple(row["positional"]),
            tuple(row["keywords"]),
            row["defaults"],
            Emit(**row["emit"]),
        )
        for name, row in data["classes"].items()
    }
    return Table(
        classes=classes,
        sources=tuple(_source(row) for row in data["sources"]),
        unsupported=tuple(
            (row["module"], tuple(row["classes"]), row["why"]) for row in data["unsupported"]
        ),
        trainer=data["trainer"],
        syncfree={name: Emit(**row) for name, row in data["syncfree"].items()},
        fp32_states=_source(data["fp32_states"]),
        host_reads=frozenset(data["capturable"]["host_reads"]),
        capturable_torch=tuple(data["capturable"]["verified_torch"]),
    )


@cache
def named_classes() -> tuple[tuple[str, frozenset[str], tuple[str, ...]], ...]:
    """(module, class names, other qualified names) of every source and unsupported row."""
    table = load_table()
    rows = [(s.module, frozenset(s.classes), s.also) for s in table.sources]
    rows += [(module, frozenset(classes), ()) for module, classes, _why in table.unsupported]
    return tuple(rows)


@cache
def swapped_classes() -> frozenset[str]:
    """The torch.optim class names an `optimizer` setting may swap (syncfree, fp32-states)."""
    table = load_table()
    names = {name.rsplit(".", 1)[-1] for name in table.syncfree}
    return frozenset(names | set(table.fp32_states.classes))
