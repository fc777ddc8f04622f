"""What a pass can say about a file: rules (with their documentation) and findings."""

from __future__ import annotations

import inspect
from dataclasses import asdict, dataclass
from enum import Enum
from typing import ClassVar


class Safety(str, Enum):
    """How much a person must look at an applied fix."""

    SAFE = "safe"  # same behaviour on the target
    REVIEW = "review"  # applied, but it changes something a person should check


class Severity(str, Enum):
    # The migrated program will not run on the accelerator (it trains on the CPU, or crashes):
    # the port is not done while one is left.
    BLOCKER = "blocker"
    ERROR = "error"  # the code fails or silently misbehaves on the target
    WARNING = "warning"  # the code runs, but slowly or with a cost on the target
    INFO = "info"  # a note about an applied rewrite; never fails a run


class Rule:
    """A rule: a stable code, a name, and documentation that ``trncodemod explain`` prints.

    Subclasses set the class attributes and write their docstring with the sections
    ``## What it does``, ``## Why``, ``## Example`` and ``## Use instead``.
    """

    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    fixable: ClassVar[bool] = True
    safety: ClassVar[Safety] = Safety.SAFE
    severity: ClassVar[Severity] = Severity.WARNING
    # The public sources the rule's facts come from: keys of data/sources.toml, which its
    # documentation cites inline as `[key]` (trncodemod.sources).
    sources: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def doc(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "")


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    column: int
    code: str
    message: str
    name: str
    severity: Severity
    safety: Safety
    fixed: bool
    cell: int | None = None  # the notebook cell (1-based) the line counts in
    # Other places of the same cause ("path:line:column"): the uses of a device decided here,
    # the repeats of a finding merged into this one.
    related: tuple[str, ...] = ()

    @property
    def location(self) -> str:
        """``path:line:column``, or ``path[cell N]:line:column`` in a notebook."""
        cell = f"[cell {self.cell}]" if self.cell is not None else ""
        return f"{self.path}{cell}:{self.line}:{self.column}"

    @classmethod
    def from_rule(
        cls, rule: type[Rule], path: str, line: int, column: int, message: str, fixed: bool
    ) -> Finding:
        return cls(
            path=path,
            line=line,
            column=column,
            code=rule.code,
            message=message,
            name=rule.name,
            severity=rule.severity,
            safety=rule.safety,
            fixed=fixed,
        )

    @property
    def counts_against_exit(self) -> bool:
        """Left for a person to do: unfixed and more than a note."""
        return not self.fixed and self.severity is not Severity.INFO

    def to_json(self) -> dict:
        data = asdict(self)
        data["severity"] = self.severity.value
        data["safety"] = self.safety.value
        data["related"] = list(self.related)
        return data
