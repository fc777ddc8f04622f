"""Golden cases: ``golden/<pass>/<case>.in.py`` with the expected ``<case>.out.py`` (absent: the
pass must leave the input byte-identical) and ``<case>.findings`` (absent: no findings).

The first lines of an input may set options for that case, in the keys of ``[tool.trncodemod]``::

    # golden: target=neuron optimizer=syncfree log-interval=5

Plugins a case names (``plugins=checks.py:Rule``) are code from the folder: as those a
configuration names, they load only with ``--allow-config-plugins``, and a ``file.py`` resolves
against the case's folder and must stay inside it (docs/trust-model.md). No case file is read
or written through a symlink that leads out of the folder given.

The folder name picks the pass whose rules are selected; ``golden/pipeline/`` (or a folder that
names no pass, as in a team's own golden folder) runs every pass.

``trncodemod golden check DIR`` compares, ``trncodemod golden update DIR`` rewrites; the
project's own ``golden/`` is checked the same way by ``tests/test_golden.py``.
"""

from __future__ import annotations

import difflib
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import click

from trncodemod.cli import ALLOW_CONFIG_PLUGINS
from trncodemod.config import KEYS, ConfigError, Settings, project_plugin
from trncodemod.findings import Finding
from trncodemod.output.report import one_line
from trncodemod.pipeline.migrate import MigrationError, migrate_text
from trncodemod.pipeline.source import SourceError, decode_source
from trncodemod.pipeline.writing import OutsideRoot, inside_root, real_roots
from trncodemod.rules import all_passes
from trncodemod.targets import target_names

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

    def settings(self, allow_plugins: bool = False) -> Settings:
        """The case's options; the plugins it names are kept only with ``allow_plugins``, else
        listed in ``withheld_plugins`` (as a configuration's are)."""
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
                elif value in ("true", "false"):
                    parsed = value == "true"
                elif "," in value or key in ("select", "ignore", "buckets", "exclude", "plugins"):
                    parts = [v for v in value.split(",") if v]
                    parsed = [int(v) if v.isdigit() else v for v in parts]
                try:
                    options[attr] = convert(parsed)
                except TypeError as err:
                    raise ConfigError(f"{self.input}: bad golden option {item!r}: {err}") from None
        folder = self.input.parent.name
        owner = next((p for p in all_passes() if p.name == folder), None)
        if "select" not in options and owner is not None:
            options["select"] = tuple(rule.code for rule in owner.rules)
        if "plugins" in options:
            named = options.pop("plugins")
            options["plugins_source"] = str(self.input)
            if allow_plugins:
                options["plugins"] = tuple(project_plugin(spec, self.input) for spec in named)
            else:
                options["withheld_plugins"] = named
        return Settings(source=str(self.input), **options)  # type: ignore[arg-type]

    def refuse_links_out(self, roots: Sequence[Path]) -> None:
        """OutsideRoot, naming the file, if one of the case's files (present or a dangling
        link) resolves out of ``roots`` (``real_roots`` of the folder given)."""
        for path in (self.input, self.output, self.findings_file):
            if path.is_symlink() or path.exists():
                try:
                    inside_root(path, roots)
                except OutsideRoot as err:
                    raise OutsideRoot(f"{path}: {err}") from None

    def expected_output(self) -> bytes:
        return self.output.read_bytes() if self.output.exists() else self.input.read_bytes()

    def expected_findings(self) -> list[str]:
        if not self.findings_file.exists():
            return []
        return [line for line in self.findings_file.read_text("utf-8").splitlines() if line]


def format_finding(finding: Finding) -> str:
    status = " [fixed]" if finding.fixed else ""
    # One line per finding (a message may quote multi-line code), never shortened: golden
    # files record the whole message.
    message = one_line(finding.message, width=None)
    return f"{finding.line}:{finding.column}: {finding.code} {message}{status}"


@dataclass(frozen=True)
class GoldenRun:
    output: bytes
    findings: list[str]
    notices: tuple[str, ...] = ()  # which plugins ran, which were withheld


def run_case(
    case: GoldenCase,
    data: bytes | None = None,
    overrides: dict[str, object] | None = None,
    allow_plugins: bool = False,
) -> GoldenRun:
    raw = case.input.read_bytes() if data is None else data
    source = decode_source(raw)
    settings = case.settings(allow_plugins).with_overrides(**(overrides or {}))
    migration = migrate_text(source.text, case.input.name, settings)
    findings = [format_finding(f) for f in migration.findings]
    return GoldenRun(source.encode(migration.text), findings, tuple(settings.plugin_notices()))


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


def case_diff(case: GoldenCase, run: GoldenRun) -> str:
    """What differs between the expected files and this run, as unified diffs ("" if nothing)."""
    parts = []
    expected = case.expected_output().decode("utf-8", "replace").splitlines(keepends=True)
    actual = run.output.decode("utf-8", "replace").splitlines(keepends=True)
    shown = case.output if case.output.exists() else case.input
    parts.extend(difflib.unified_diff(expected, actual, f"expected {shown}", "actual output"))
    expected_findings = [line + "\n" for line in case.expected_findings()]
    actual_findings = [line + "\n" for line in run.findings]
    parts.extend(
        difflib.unified_diff(
            expected_findings, actual_findings, f"expected {case.findings_file}", "actual findings"
        )
    )
    return "".join(parts)


def _overrides(target: str | None, select: str | None) -> dict[str, object]:
    codes = tuple(c.strip().upper() for c in select.split(",")) if select else None
    return {"target": target, "select": codes}


@click.group("golden")
def golden_command() -> None:
    """Golden-file review: run the tool on every *.in.py under a folder and compare."""


def _cases_in(folder: Path) -> list[GoldenCase]:
    """The cases under ``folder``; none is a usage error (exit 2): a check of nothing passing
    would hide a mistyped folder."""
    cases = find_cases(folder)
    if not cases:
        raise click.UsageError(f"{folder}: no golden cases (*.in.py) in this folder")
    return cases


def _case_options(command: Callable[..., None]) -> Callable[..., None]:
    """What `golden check` and `golden update` both take: a folder, overrides, and the opt-in
    for the plugins cases name."""
    command = ALLOW_CONFIG_PLUGINS(command)
    command = click.option(
        "--select", help="Override each case's rule selection (codes or prefixes)."
    )(command)
    command = click.option(
        "--target", type=click.Choice(target_names()), help="Override each case's target."
    )(command)
    return click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))(
        command
    )


def _run(
    case: GoldenCase, roots: Sequence[Path], target: str | None, select: str | None
) -> GoldenRun:
    """One case, as the commands run it: OutsideRoot if one of its files links out of the
    folder, and on stderr which plugins it loaded or withheld."""
    case.refuse_links_out(roots)
    allow = click.get_current_context().meta.get("allow_config_plugins", False)
    run = run_case(case, overrides=_overrides(target, select), allow_plugins=allow)
    for line in run.notices:
        click.echo(line, err=True)
    return run


def _cannot_run(case: GoldenCase, err: Exception) -> str:
    """Why ``case`` could not be run, naming its input (and the line, where known)."""
    if isinstance(err, RecursionError):  # a pass walking code nested thousands deep
        return f"{case.input}: cannot migrate: nested too deeply"
    line = getattr(err, "line", None)
    where = f"{case.input}:{line}" if line else str(case.input)
    return f"{where}: {getattr(err, 'reason', err)}"


def _roots(folder: Path) -> tuple[Path, ...]:
    """The folder's real root; a folder reached through a symlink leading out of its work tree
    is refused (exit 2), as every command that writes refuses it (``containment``)."""
    try:
        return real_roots([folder])
    except OutsideRoot as err:
        raise click.UsageError(str(err)) from None


@golden_command.command("check")
@_case_options
def golden_check(folder: Path, target: str | None, select: str | None) -> None:
    """Print a unified diff for every case whose output or findings differ; exit 1 if any."""
    cases = _cases_in(folder)
    roots = _roots(folder)
    failed = 0
    for case in cases:
        try:
            diff = case_diff(case, _run(case, roots, target, select))
        except (ConfigError, OutsideRoot) as err:  # its message names the case already
            diff = f"{err}\n"
        except (SourceError, MigrationError, RecursionError) as err:
            diff = f"{_cannot_run(case, err)}\n"
        if diff:
            failed += 1
            click.echo(diff, nl=False)
    click.echo(f"{len(cases)} golden cases, {failed} differ.", err=True)
    sys.exit(1 if failed else 0)


@golden_command.command("update")
@_case_options
def golden_update(folder: Path, target: str | None, select: str | None) -> None:
    """Rewrite every case's expected output and findings from the tool's current behaviour; a
    case that cannot be read, or whose files link out of the folder, is named and left alone
    (exit 2)."""
    cases = _cases_in(folder)
    roots = _roots(folder)
    changed = refused = 0
    for case in cases:
        try:
            run = _run(case, roots, target, select)
        except ConfigError as err:
            raise click.UsageError(str(err)) from None
        except (OutsideRoot, SourceError, MigrationError, RecursionError) as err:
            refused += 1
            shown = str(err) if isinstance(err, OutsideRoot) else _cannot_run(case, err)
            click.echo(shown, err=True)
            continue
        if case_diff(case, run):
            changed += 1
            update_case(case, run)
            click.echo(f"updated {case.name}", err=True)
    click.echo(
        f"{len(cases)} golden cases, {changed} updated, {refused} refused; review them with "
        "git diff.",
        err=True,
    )
    sys.exit(2 if refused else 0)
