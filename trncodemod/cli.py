"""The command line: ``trncodemod apply | rules | explain``.

Exit codes, as ruff's: 0 nothing left to do; 1 changes pending (with --dry-run) or findings
left for a person (after writing); 2 usage, configuration, read, parse or internal error.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from trncodemod.cache import ResultCache, open_cache
from trncodemod.config import ConfigError, Settings, load_settings
from trncodemod.engine import FileOutcome, migrate_files, summarize
from trncodemod.files import discover
from trncodemod.report import finding_lines, json_report, summary_line
from trncodemod.rules import SelectionError, all_rules, enabled_codes, pass_of, rule_by_code
from trncodemod.targets import load_target, target_names
from trncodemod.writing import WriteError, write_atomic

EXIT_CLEAN, EXIT_PENDING, EXIT_ERROR = 0, 1, 2
PROGRESS_MIN_FILES = 50


def _codes(value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(code.strip().upper() for code in value.split(",") if code.strip())


def _settings(paths: tuple[Path, ...], config: Path | None, **overrides: object) -> Settings:
    start = paths[0] if paths else Path.cwd()
    try:
        settings = load_settings(start, config).with_overrides(**overrides)
        enabled_codes(settings.select, settings.ignore)
    except (ConfigError, SelectionError) as err:
        raise click.UsageError(str(err)) from None
    return settings


def _run(
    files: list[Path], settings: Settings, jobs: int | None, cache: ResultCache | None
) -> list[FileOutcome]:
    outcomes = migrate_files(files, settings, jobs, cache)
    if not sys.stderr.isatty() or len(files) < PROGRESS_MIN_FILES:
        return list(outcomes)
    from rich.progress import Progress

    with Progress(transient=True, console=None) as progress:
        task = progress.add_task("migrating", total=len(files))
        collected = []
        for outcome in outcomes:
            collected.append(outcome)
            progress.advance(task)
        return collected


def _write(outcomes: list[FileOutcome]) -> list[FileOutcome]:
    written = []
    for outcome in outcomes:
        if outcome.changed:
            try:
                write_atomic(outcome.path, outcome.new, outcome.old)  # type: ignore[arg-type]
            except WriteError as err:
                outcome = FileOutcome(
                    outcome.path,
                    outcome.display,
                    old=outcome.old,
                    findings=outcome.findings,
                    error=str(err),
                )
        written.append(outcome)
    return written


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="trncodemod")
def main() -> None:
    """Rewrite PyTorch GPU/CPU training code for AWS Trainium, as a reviewable patch."""


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--dry-run", is_flag=True, help="Write nothing; print the patch on stdout.")
@click.option(
    "--patch",
    "patch_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the patch to this file.",
)
@click.option("--select", help="Rule codes or prefixes to run (default: ALL).")
@click.option("--ignore", help="Rule codes or prefixes to leave out.")
@click.option(
    "--target", type=click.Choice(target_names()), help="Target profile (default xla-2.9)."
)
@click.option(
    "-j", "--jobs", type=click.IntRange(min=1), help="Worker processes (default: all cores)."
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Format of the findings on stderr.",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when changes or findings are left.")
@click.option(
    "--config",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="A pyproject.toml to read [tool.trncodemod] from (default: the nearest).",
)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the result cache.")
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the result cache lives (default: .trncodemod_cache beside the configuration).",
)
def apply(
    paths,
    dry_run,
    patch_file,
    select,
    ignore,
    target,
    jobs,
    fmt,
    exit_zero,
    config,
    no_cache,
    cache_dir,
) -> None:
    """Migrate PATHS (files or folders) for the target.

    The patch goes to stdout (with --dry-run) and/or to --patch FILE; findings always go to
    stderr, so the two never mix.
    """
    settings = _settings(paths, config, target=target, select=_codes(select), ignore=_codes(ignore))
    found = discover(paths, settings.exclude, settings.root, settings.respect_gitignore)
    for path in found.missing:
        click.echo(f"{path}: no such file or folder", err=True)
    cache = None
    if not no_cache:
        enabled = enabled_codes(settings.select, settings.ignore)
        try:
            cache = open_cache(cache_dir or settings.root / ".trncodemod_cache", settings, enabled)
        except OSError as err:
            click.echo(f"warning: cache disabled: {err}", err=True)
    outcomes = _run(list(found.files), settings, jobs, cache)
    patch = b"".join(outcome.diff for outcome in outcomes)
    if patch_file is not None:
        patch_file.write_bytes(patch)
    if dry_run:
        sys.stdout.buffer.write(patch)
        sys.stdout.flush()
    else:
        outcomes = _write(outcomes)
    if fmt == "json":
        click.echo(json_report(outcomes), err=True)
    else:
        for line in finding_lines(outcomes):
            click.echo(line, err=True)
        click.echo(summary_line(outcomes, dry_run), err=True)
    counts = summarize(outcomes)
    if counts["errors"] or found.missing:
        sys.exit(EXIT_ERROR)
    # As ruff's --diff: a dry run answers "would anything change?"; a writing run answers
    # "is anything left for a person?" (`check` reports every finding).
    pending = counts["changed"] if dry_run else counts["remaining"]
    if not exit_zero and pending:
        sys.exit(EXIT_PENDING)
    sys.exit(EXIT_CLEAN)


@main.command()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    show_default=True,
)
def rules(fmt: str) -> None:
    """List every rule: code, name, what it does, safety class, targets."""
    rows = []
    for rule in all_rules():
        owner = pass_of(rule)
        targets = [name for name in target_names() if owner.applies_to(load_target(name))]
        rows.append(
            {
                "code": rule.code,
                "name": rule.name,
                "pass": owner.name,
                "summary": rule.summary,
                "fixable": rule.fixable,
                "safety": rule.safety.value if rule.fixable else "report",
                "severity": rule.severity.value,
                "targets": targets,
            }
        )
    if fmt == "json":
        import json

        click.echo(json.dumps(rows, indent=2))
        return
    if fmt == "markdown":
        click.echo(rules_markdown(rows))
        return
    for row in rows:
        click.echo(f"{row['code']}  {row['name']:<28} {row['safety']:<7} {row['summary']}")


def rules_markdown(rows: list[dict]) -> str:
    """The README's rule table."""
    lines = [
        "| code | name | pass | what it does | fix | targets |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        summary = row["summary"].replace("|", "\\|")
        lines.append(
            f"| {row['code']} | {row['name']} | {row['pass']} | {summary} | {row['safety']} "
            f"| {', '.join(row['targets'])} |"
        )
    return "\n".join(lines)


@main.command()
@click.argument("code")
def explain(code: str) -> None:
    """Print the documentation of a rule (by code, e.g. TRN001, or by name)."""
    rule = rule_by_code(code)
    if rule is None:
        raise click.UsageError(f"unknown rule {code!r}; `trncodemod rules` lists them")
    owner = pass_of(rule)
    targets = [name for name in target_names() if owner.applies_to(load_target(name))]
    safety = rule.safety.value if rule.fixable else "report only"
    click.echo(f"{rule.code} {rule.name} ({owner.name} pass)\n")
    click.echo(f"Fix: {safety}. Severity: {rule.severity.value}. Targets: {', '.join(targets)}.")
    click.echo(f"Source: {rule.source}\n")
    click.echo(rule.doc())


# Further commands live in their own modules and register here, one line each.
from trncodemod.golden import golden_command  # noqa: E402

main.add_command(golden_command)
from trncodemod.reviewed_patch import apply_patch_command  # noqa: E402

main.add_command(apply_patch_command)
from trncodemod.pull_request import pr_command  # noqa: E402

main.add_command(pr_command)
