"""Golden cases: ``golden/<pass>/<case>.in.py`` with the expected ``<case>.out.py`` (absent: the
pass must leave the input byte-identical) and ``<case>.findings`` (absent: no findings).

The first lines of an input may set options for that case, in the keys of ``[tool.trncodemod]``::

    # golden: target=neuron optimizer=syncfree log-interval=5

The folder name picks the pass whose rules are selected; ``golden/pipeline/`` runs every pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from trncodemod.config import KEYS, ConfigError, Settings
from trncodemod.engine import migrate_text
from trncodemod.findings import Finding
from trncodemod.rules import all_passes
from trncodemod.source import decode_source

_DIRECTIVE = re.compile(r"^#\s*golden:(.*)$", re.MULTILINE)
ALL_PASSES = "pipeline"


@dataclass(frozen=True)
class GoldenCase:
    input: Path

    @property
    def name(self) -> str:
        return f"{self.input.parent.name}/{self.input.name.removesuffix('.in.py')}"

    @property
    def output(self) -> Path:
        return self.input.with_name(self.input.name.replace(".in.py", ".out.py"))

    @property
    def findings_file(self) -> Path:
        return self.input.with_name(self.input.name.replace(".in.py", ".findings"))

    def settings(self) -> Settings:
        text = self.input.read_text("utf-8", errors="replace")
        options: dict[str, object] = {}
        for line in _DIRECTIVE.findall(text):
            for item in line.split():
                key, _, value = item.partition("=")
                if key not in KEYS:
                    raise ConfigError(f"{self.input}: unknown golden option {key!r}")
                attr, convert = KEYS[key]
                parsed: object = value
                if value.isdigit():
                    parsed = int(value)
                elif "," in value or key in ("select", "ignore", "buckets", "exclude"):
                    parts = [v for v in value.split(",") if v]
                    parsed = [int(v) if v.isdigit() else v for v in parts]
                try:
                    options[attr] = convert(parsed)
                except TypeError as err:
                    raise ConfigError(f"{self.input}: bad golden option {item!r}: {err}") from None
        folder = self.input.parent.name
        if "select" not in options and folder != ALL_PASSES:
            owner = next((p for p in all_passes() if p.name == folder), None)
            if owner is None:
                raise ConfigError(f"{self.input}: folder {folder!r} names no pass")
            options["select"] = tuple(rule.code for rule in owner.rules)
        return Settings(**options)  # type: ignore[arg-type]

    def expected_output(self) -> bytes:
        return self.output.read_bytes() if self.output.exists() else self.input.read_bytes()

    def expected_findings(self) -> list[str]:
        if not self.findings_file.exists():
            return []
        return [line for line in self.findings_file.read_text("utf-8").splitlines() if line]


def format_finding(finding: Finding) -> str:
    status = " [fixed]" if finding.fixed else ""
    return f"{finding.line}:{finding.column}: {finding.code} {finding.message}{status}"


@dataclass(frozen=True)
class GoldenRun:
    output: bytes
    findings: list[str]


def run_case(case: GoldenCase, data: bytes | None = None) -> GoldenRun:
    raw = case.input.read_bytes() if data is None else data
    source = decode_source(raw)
    migration = migrate_text(source.text, case.input.name, case.settings())
    return GoldenRun(source.encode(migration.text), [format_finding(f) for f in migration.findings])


def update_case(case: GoldenCase, run: GoldenRun) -> None:
    if run.output == case.input.read_bytes():
        case.output.unlink(missing_ok=True)
    else:
        case.output.write_bytes(run.output)
    if run.findings:
        case.findings_file.write_text("\n".join(run.findings) + "\n", "utf-8")
    else:
        case.findings_file.unlink(missing_ok=True)


def find_cases(root: Path) -> list[GoldenCase]:
    return [GoldenCase(path) for path in sorted(root.rglob("*.in.py"))]
