"""Target profiles, read from ``data/targets.toml``: the data that decides what a pass emits."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

DEFAULT_TARGET = "xla-2.9"


@dataclass(frozen=True)
class Api:
    """An expression to emit, and the import that makes its first name resolve."""

    expr: str
    module: str
    alias: str

    def __bool__(self) -> bool:
        return bool(self.expr)


@dataclass(frozen=True)
class Target:
    name: str
    summary: str
    backend: str  # "xla" or "neuron"
    torch: str
    torch_xla: str
    device_string: str
    device: Api
    step_marker: Api
    step_closure: Api
    pins: str  # the requirement line for this target
    skip_passes: tuple[str, ...]
    # Further APIs by role (`[targets.<name>.apis]` in targets.toml), e.g. "save", "world_size".
    apis: dict[str, Api]

    def api(self, role: str) -> Api:
        """The target's API for ``role``; an empty Api when the target has none."""
        return self.apis.get(role, Api("", "", ""))

    @property
    def is_xla(self) -> bool:
        return self.backend == "xla"


@cache
def _table() -> dict[str, dict]:
    text = resources.files("trncodemod").joinpath("data/targets.toml").read_text("utf-8")
    return tomllib.loads(text)["targets"]


def target_names() -> list[str]:
    return list(_table())


@cache
def load_target(name: str) -> Target:
    table = _table()
    if name not in table:
        raise KeyError(f"unknown target {name!r}; choose one of: {', '.join(table)}")
    row = dict(table[name])
    fields = {key: Api(**row.pop(key)) for key in ("device", "step_marker", "step_closure")}
    apis = {role: Api(**value) for role, value in row.pop("apis", {}).items()}
    return Target(name=name, skip_passes=tuple(row.pop("skip_passes")), apis=apis, **fields, **row)
