"""The command line: ``trncodemod apply | check | rules | explain``.

Exit codes, as ruff's: 0 nothing left to do; 1 changes pending (with --dry-run), findings left
for a person (after writing), or anything to fix or do (``check``); 2 usage, configuration, read,
parse or internal error.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from trncodemod import __version__
from trncodemod.config import ConfigError, Settings, load_settings
from trncodemod.output.causes import one_per_cause
from trncodemod.output.counts import Counts, count
from trncodemod.output.report import (
    check_lines,
    check_summary,
    error_lines,
    finding_lines,
    github_lines,
    json_report,
    statistics_lines,
    summary_line,
    verdict_lines,
)
from trncodemod.output.report import statistics as statistics_rows
from trncodemod.pipeline.cache import ResultCache, open_cache
from trncodemod.pipeline.engine import FileOutcome, migrate_files
from trncodemod.pipeline.files import discover
from trncodemod.pipeline.writing import write_outcomes
from trncodemod.selection import SelectionError, enabled_codes
from trncodemod.targets import DEFAULT_TARGET, load_target, target_names

if TYPE_CHECKING:  # rich is imported only when a terminal shows progress
    from rich.progress import Progress, TaskID

# LibCST and the passes are imported where a command needs them (`trncodemod.pipeline.migrate`, on the
# first file the cache does not answer), so a run served from the cache starts in 0.1 s.
EXIT_CLEAN, EXIT_PENDING, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C
INTERRUPTED_WRITING = "interrupted while writing: stopped once every file was written or refused"
PROGRESS_AFTER_S = 0.5  # a run shorter than this shows no progress at all


def _codes(value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(code.strip().upper() for code in value.split(",") if code.strip())


def _settings(paths: tuple[Path, ...], config: Path | None, **overrides: object) -> Settings:
    start = paths[0] if paths else Path.cwd()
    meta = click.get_current_context().meta
    allow = meta.get("allow_config_plugins", False)
    # --scale-out/--scale-lr given on the command line (a flag left off keeps the file's value).
    overrides |= {key: True for key in ("scale_out", "scale_lr") if meta.get(key)}
    try:
        settings = load_settings(start, config, allow).with_overrides(**overrides)
        enabled_codes(settings.select, settings.ignore)
    except (ConfigError, SelectionError) as err:
        raise click.UsageError(str(err)) from None
    return settings


def _run(
    files: list[Path], settings: Settings, jobs: int | None, cache: ResultCache | None
) -> list[FileOutcome]:
    """Every file's outcome; on a terminal, a progress line once the run takes a moment."""
    outcomes = migrate_files(files, settings, jobs, cache)
    collected: list[FileOutcome] = []
    progress = task = timer = None
    if sys.stderr.isatty() and files:
        progress, task = _progress(len(files), str(files[0]))
        # Shown from a timer, so a run whose first result is slow (a worker's batch of files)
        # still shows it; a run over within the moment shows nothing.
        timer = threading.Timer(PROGRESS_AFTER_S, progress.start)
        timer.daemon = True
        timer.start()
    try:
        for outcome in outcomes:
            collected.append(outcome)
            if progress is not None:
                current = files[len(collected)] if len(collected) < len(files) else ""
                progress.update(task, completed=len(collected), current=str(current))
        return collected
    finally:
        outcomes.close()  # on Ctrl-C: the engine stops its workers now
        if timer is not None and progress is not None:
            timer.cancel()
            timer.join()
            progress.stop()


def _progress(total: int, first: str) -> tuple[Progress, TaskID]:
    """Files done/total, elapsed time and the file being migrated, on stderr; gone when done."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("migrating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[current]}"),
        console=Console(stderr=True),
        transient=True,
    )
    return progress, progress.add_task("migrating", total=total, current=first)


@contextlib.contextmanager
def _interrupt_deferred() -> Iterator[list[int]]:
    """Ctrl-C while files are written takes effect once they are: never a half-written run. The
    list it gives holds the signals received meanwhile, for the caller to report (after its
    summary: what was written) and to exit 130 on."""
    received: list[int] = []
    try:
        previous = signal.signal(signal.SIGINT, lambda number, _: received.append(number))
    except ValueError:  # not the main thread: nothing to defer to
        yield received
        return
    try:
        yield received
    finally:
        signal.signal(signal.SIGINT, previous)


def _ask(prompt: str) -> str | None:
    """One answer per line from stdin (a terminal or a pipe); None at the end of input."""
    click.echo(prompt, nl=False, err=True)
    line = sys.stdin.readline()
    return line or None


class _LazyGroup(click.Group):
    """Commands that live in their own modules are imported when used (click's documented lazy
    group): `doctor` alone brings yaml and packaging, which every `apply` would pay for."""

    LAZY = {
        "doctor": "trncodemod.commands.doctor:doctor_command",
        "golden": "trncodemod.commands.golden:golden_command",
        "apply-patch": "trncodemod.commands.reviewed_patch:apply_patch_command",
        "pr": "trncodemod.commands.pull_request:pr_command",
        "campaign": "trncodemod.campaign.command:campaign_command",
        "verify": "trncodemod.commands.verify:verify_command",
    }

    def invoke(self, ctx: click.Context) -> object:
        # Ctrl-C: exit 130 with a line saying so, not click's "Aborted!" and exit 1 (which
        # means "findings left").
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("interrupted: nothing more was written", err=True)
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.LAZY])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.LAZY:
            module, _, attribute = self.LAZY[cmd_name].partition(":")
            return getattr(importlib.import_module(module), attribute)
        return super().get_command(ctx, cmd_name)


def version_text() -> str:
    """What `--version` prints: the version, and each target it can migrate to."""
    lines = [f"trncodemod {__version__}", "targets:"]
    for name in target_names():
        default = " (default)" if name == DEFAULT_TARGET else ""
        lines.append(f"  {name}{default}: {load_target(name).summary}")
    return "\n".join(lines)


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(version_text())
        ctx.exit()


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and the targets, then exit.",
)
def main() -> None:
    """Rewrite PyTorch GPU/CPU training code for AWS Trainium, as a reviewable patch."""
    _escape_unwritable_names()


def _escape_unwritable_names() -> None:
    """A file name that is not UTF-8 reaches the output as surrogates (os.fsdecode), which a
    strict UTF-8 stream refuses with a traceback: such characters are written as escapes."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            with contextlib.suppress(ValueError, OSError):
                stream.reconfigure(errors="backslashreplace")


@dataclass(frozen=True)
class Run:
    """What `apply` and `check` share: the files found, and what the engine made of them."""

    outcomes: list[FileOutcome]
    missing: tuple[Path, ...]
    target: str = ""


def _remember(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    ctx.meta["allow_config_plugins"] = value


def _remember_flag(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    ctx.meta[param.name] = value


# docs/scale-out.md: data parallel over every NeuronCore, and the learning rate with it.
SCALE_OUT = click.option(
    "--scale-out",
    is_flag=True,
    expose_value=False,
    callback=_remember_flag,
    help="Make a single-device training script data parallel over every NeuronCore "
    "(launched with torchrun); config key `scale-out`.",
)
SCALE_LR = click.option(
    "--scale-lr",
    is_flag=True,
    expose_value=False,
    callback=_remember_flag,
    help="With --scale-out, multiply the learning rate by the world size (the global batch "
    "grows as much); config key `scale-lr`.",
)

# Shared with `pr`; read where settings are loaded (docs/trust-model.md).
ALLOW_CONFIG_PLUGINS = click.option(
    "--allow-config-plugins",
    is_flag=True,
    expose_value=False,
    callback=_remember,
    help="Run the plugins named in the scanned tree's configuration (its code runs: only for "
    "repositories you trust). Without it they are listed on stderr and not loaded.",
)


def _run_options(command: Callable) -> Callable:
    """The options `apply` and `check` share: which rules, which target, how to run."""
    options = [
        click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path)),
        click.option("--select", help="Rule codes or prefixes to run (default: ALL)."),
        click.option("--ignore", help="Rule codes or prefixes to leave out."),
        click.option(
            "--target", type=click.Choice(target_names()), help="Target profile (default xla-2.9)."
        ),
        click.option(
            "-j",
            "--jobs",
            type=click.IntRange(min=1),
            help="Worker processes (default: all cores).",
        ),
        click.option(
            "--exit-zero",
            is_flag=True,
            help="Exit 0 even when changes or findings are left; a blocker left still exits 1.",
        ),
        click.option(
            "--config",
            type=click.Path(dir_okay=False, exists=True, path_type=Path),
            help="A pyproject.toml to read [tool.trncodemod] from (default: the nearest).",
        ),
        click.option(
            "--plugin",
            "plugins",
            multiple=True,
            help="A LibCST codemod or Bowler query (`module:attr` or `file.py:attr`) to run after "
            "the built-in passes; repeatable; replaces `plugins` from the configuration.",
        ),
        ALLOW_CONFIG_PLUGINS,
        SCALE_OUT,
        SCALE_LR,
        click.option("--no-cache", is_flag=True, help="Neither read nor write the result cache."),
        click.option(
            "--cache-dir",
            type=click.Path(file_okay=False, path_type=Path),
            help="Where the result cache lives (default: trncodemod/results in the user's cache "
            "folder, $XDG_CACHE_HOME or ~/.cache).",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _migrate(
    paths: tuple[Path, ...],
    config: Path | None,
    select: str | None,
    ignore: str | None,
    target: str | None,
    jobs: int | None,
    no_cache: bool,
    cache_dir: Path | None,
    plugins: tuple[str, ...] = (),
) -> Run:
    """Find the files, run the selected passes on each (through the cache), write nothing."""
    settings = _settings(
        paths,
        config,
        target=target,
        select=_codes(select),
        ignore=_codes(ignore),
        plugins=tuple(plugins) or None,
    )
    for line in settings.plugin_notices():
        click.echo(line, err=True)
    found = discover(paths, settings.exclude, settings.root, settings.respect_gitignore)
    for path in found.missing:
        click.echo(f"{path}: no such file or folder", err=True)
    for skipped in found.skipped:
        click.echo(f"{skipped.path}: skipped: {skipped.reason}", err=True)
    # A path named on the command line that cannot be read is an error, like a missing one.
    broken = tuple(
        s.path
        for s in found.skipped
        if s.path in paths
        and (s.reason == "broken symlink" or s.reason.startswith("not a regular file"))
    )
    cache = None
    if not no_cache:
        enabled = enabled_codes(settings.select, settings.ignore)
        try:
            cache = open_cache(cache_dir, settings, enabled)
        except OSError as err:
            click.echo(f"warning: cache disabled: {err}", err=True)
    outcomes = _run(list(found.files), settings, jobs, cache)
    # Blockers about where training runs are claims the evaluator proves (issue 34).
    from trncodemod.pipeline.verdicts import proven

    outcomes = proven(
        outcomes, settings.target, cache, enabled_codes(settings.select, settings.ignore)
    )
    return Run(outcomes, tuple(found.missing) + broken, settings.target)


@main.command()
@_run_options
@click.option("--dry-run", is_flag=True, help="Write nothing; print the patch on stdout.")
@click.option(
    "--patch",
    "patch_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the patch to this file.",
)
@click.option(
    "-i",
    "--interactive",
    is_flag=True,
    help="Review each hunk: y apply, n skip, a/d the rest of the file, q quit, ? help.",
)
@click.option(
    "--annotate",
    is_flag=True,
    help="Add a `# TODO(trncodemod): CODE message` comment above each finding left for a person.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Format of the findings on stderr.",
)
def apply(
    paths,
    dry_run,
    patch_file,
    interactive,
    annotate,
    select,
    ignore,
    target,
    jobs,
    fmt,
    exit_zero,
    config,
    no_cache,
    cache_dir,
    plugins,
) -> None:
    """Migrate PATHS (files or folders) for the target.

    The patch goes to stdout (with --dry-run) and/or to --patch FILE; findings always go to
    stderr, so the two never mix.
    """
    refuse_escapes(paths)
    run = _migrate(paths, config, select, ignore, target, jobs, no_cache, cache_dir, plugins)
    outcomes = run.outcomes
    if annotate:
        from trncodemod.output.annotate import annotate_outcome

        outcomes = [annotate_outcome(outcome) for outcome in outcomes]
    if interactive:
        from trncodemod.commands.review import review

        outcomes, reviewed = review(outcomes, _ask, lambda text: click.echo(text, err=True))
        click.echo(reviewed, err=True)
    patch = b"".join(outcome.diff for outcome in outcomes)
    if patch_file is not None:
        patch_file.write_bytes(patch)
    if dry_run:
        sys.stdout.buffer.write(patch)
        sys.stdout.flush()
    interrupted: list[int] = []
    if not dry_run:
        with _interrupt_deferred() as interrupted:
            outcomes = write_outcomes(outcomes, paths)
    outcomes = one_per_cause(outcomes)  # as `check` counts them
    if fmt == "json":
        click.echo(json_report(outcomes, "dry-run" if dry_run else "apply", run.target), err=True)
    else:
        for line in finding_lines(outcomes):
            click.echo(line, err=True)
        for outcome in outcomes:
            # A notebook's patch is JSON; show people its cells as code (stderr, like findings).
            if outcome.changed and outcome.path.suffix == ".ipynb":
                from trncodemod.pipeline.notebooks import cell_diffs

                click.echo(
                    cell_diffs(outcome.old, outcome.new, outcome.display), err=True, nl=False
                )
        for line in verdict_lines(outcomes, run.target):
            click.echo(line, err=True)
        click.echo(summary_line(outcomes, dry_run, run.target), err=True)
    if interrupted:
        click.echo(INTERRUPTED_WRITING, err=True)
        sys.exit(EXIT_INTERRUPTED)
    counts = count(outcomes)
    if counts.errors or run.missing:
        sys.exit(EXIT_ERROR)
    # As ruff's --diff: a dry run answers "would anything change?"; a writing run answers
    # "is anything left for a person?" (`check` reports every finding).
    pending = counts.changed if dry_run else counts.left
    sys.exit(_exit_code(counts, bool(pending), exit_zero))


def refuse_escapes(paths: tuple[Path, ...], root: Path | None = None) -> None:
    """Exit 2, writing nothing, when a path named for a writing command leads, through a
    symlink, out of the work tree that holds it (or out of ``root``): `containment`'s rule."""
    from trncodemod.pipeline.containment import refused

    escapes = refused(paths, root)
    for escape in escapes:
        click.echo(str(escape), err=True)
    if escapes:
        sys.exit(EXIT_ERROR)


def _exit_code(counts: Counts, pending: bool, exit_zero: bool) -> int:
    """1 while anything is pending; --exit-zero forgives that, but never a blocker left: it
    exists to land a migration with work left for later, and one that will not run on the
    accelerator is not that."""
    if counts.blockers:
        return EXIT_PENDING
    return EXIT_PENDING if pending and not exit_zero else EXIT_CLEAN


@main.command()
@_run_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "sarif", "github"]),
    default="text",
    show_default=True,
    help="Format of the findings on stdout.",
)
@click.option(
    "--statistics",
    is_flag=True,
    help="One row per rule (count, code, [*] when `apply` fixes them, name) instead of findings.",
)
def check(
    paths,
    select,
    ignore,
    target,
    jobs,
    exit_zero,
    config,
    plugins,
    no_cache,
    cache_dir,
    fmt,
    statistics,
) -> None:
    """Report what `apply` would fix ([*]) and what it leaves for a person; write nothing.

    Findings go to stdout; files that cannot be read, parsed or migrated go to stderr. Exit 1 when
    a finding is fixable or left for a person (notes that need nothing do not count), 2 on errors.
    """
    if statistics and fmt not in ("text", "json"):
        raise click.UsageError("--statistics prints text or json, not " + fmt)
    run = _migrate(paths, config, select, ignore, target, jobs, no_cache, cache_dir, plugins)
    outcomes = one_per_cause(run.outcomes)
    if fmt == "github":
        for line in github_lines(outcomes):
            click.echo(line)
    else:
        for line in error_lines(outcomes):
            click.echo(line, err=True)
    if statistics:
        rows = statistics_rows(outcomes)
        if fmt == "json":
            click.echo(json.dumps(rows, indent=2, sort_keys=True))
        else:
            for line in statistics_lines(rows):
                click.echo(line)
    elif fmt == "json":
        click.echo(json_report(outcomes, "check", run.target))
    elif fmt == "sarif":
        from trncodemod.output.sarif import sarif_report

        click.echo(sarif_report(outcomes, run.target))
    elif fmt == "text":
        for line in check_lines(outcomes):
            click.echo(line)
        for line in verdict_lines(outcomes, run.target):
            click.echo(line)
        click.echo(check_summary(outcomes, run.target))
    counts = count(outcomes)
    if counts.errors or run.missing:
        sys.exit(EXIT_ERROR)
    sys.exit(_exit_code(counts, bool(counts.fixed or counts.left), exit_zero))


@main.command()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    show_default=True,
)
def rules(fmt: str) -> None:
    """List every rule: code, name, what it does, fix class, targets, sources.

    `--format markdown` prints the rule reference, docs/rules.md."""
    from trncodemod.output.rule_docs import rule_row, rules_page
    from trncodemod.rules import all_rules

    if fmt == "markdown":
        click.echo(rules_page(), nl=False)
        return
    rows = [rule_row(rule) for rule in all_rules()]
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        click.echo(f"{row['code']}  {row['name']:<28} {row['safety']:<7} {row['summary']}")


@main.command()
@click.argument("code")
def explain(code: str) -> None:
    """Print the documentation of a rule (by code, e.g. TRN001, or by name), with its sources."""
    from trncodemod.output.rule_docs import explain_text
    from trncodemod.rules import rule_by_code

    rule = rule_by_code(code)
    if rule is None:
        raise click.UsageError(f"unknown rule {code!r}; `trncodemod rules` lists them")
    click.echo(explain_text(rule))
