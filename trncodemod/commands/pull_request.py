"""Migration pull requests: ``trncodemod pr PATH...`` in a git work tree.

Creates a branch, applies the migration, commits it with a message naming the rules applied,
and writes a pull-request description (Markdown) for a reviewer: what blocks, the files that
failed to migrate, what changed by rule, the ``review``-class changes to check, the findings left
as a checklist, the environment the target needs, and how to verify. Nothing is pushed; the
description is ready for ``gh pr create --body-file``. The work tree ends on the branch it was on,
with its files as they were, after success and after any failure; the repository's hooks run
only with ``--run-hooks`` (docs/trust-model.md, "Writes, git and processes").
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import click

from trncodemod.analysis.training import (
    ACCELERATE,
    HF_TRAINER,
    LIGHTNING,
    MP_SPAWN,
    TORCHRUN,
    XMP_SPAWN,
)
from trncodemod.cli import ALLOW_CONFIG_PLUGINS, SCALE_LR, SCALE_OUT, refuse_escapes
from trncodemod.config import ConfigError, Settings, load_settings
from trncodemod.findings import Finding, Severity
from trncodemod.git import WITHOUT_HOOKS, OptionLike, not_an_option
from trncodemod.output.causes import one_per_cause
from trncodemod.output.counts import count, plural
from trncodemod.output.markdown import code_span, fence
from trncodemod.output.report import one_line
from trncodemod.pipeline import containment
from trncodemod.pipeline.engine import FileOutcome, blocks, migrate_files
from trncodemod.pipeline.files import discover
from trncodemod.pipeline.writing import write_outcomes
from trncodemod.rules import rule_by_code
from trncodemod.selection import SelectionError, enabled_codes
from trncodemod.targets import DEFAULT_TARGET, Target, load_target, target_names


class GitError(click.ClickException):
    exit_code = 2


def _git(*args: str, cwd: Path, hooks: bool = False) -> str:
    """git's output; GitError with its message on failure. The repository's hooks run only with
    ``hooks`` (`pr --run-hooks`)."""
    command = ["git", *(() if hooks else WITHOUT_HOOKS), *args]
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise GitError(f"git {' '.join(args)}: {result.stderr.strip() or result.stdout.strip()}")
    return result.stdout


def _review_line(finding: Finding) -> str:
    return f"- [ ] {code_span(finding.location)} {finding.code} {one_line(finding.message)}"


# How each launcher starts an entry script ([xla-pjrt]: multi-process jobs run under their
# launcher; `trncodemod verify` runs one process on XLA:CPU).
_LAUNCH = {
    TORCHRUN: "torchrun --nproc_per_node=2 {path}",
    ACCELERATE: "accelerate launch {path}",
    MP_SPAWN: "python {path}",
    XMP_SPAWN: "python {path}",
    LIGHTNING: "python {path}",
    HF_TRAINER: "python {path}",
}


# A script `--scale-out` made data parallel (TRN161, transforms/scale_out_rules.py; the code by
# value: importing the passes loads LibCST) runs once per NeuronCore of a trn1.32xlarge.
_SCALED_OUT = "TRN161"
_SCALED_OUT_LAUNCH = "torchrun --nproc_per_node=32 {path}"


def _scaled_out(outcome: FileOutcome) -> bool:
    return any(f.code == _SCALED_OUT and f.fixed for f in outcome.findings)


def _is_entry_script(outcome: FileOutcome) -> bool:
    if outcome.profile is not None:
        return bool(outcome.profile.get("entry_script"))
    if outcome.path.suffix == ".ipynb" or outcome.old is None:
        return False
    # No profile (an older cache entry): the `__main__` guard decides.
    return re.search(rb"^if\s+__name__\s*==\s*[\'\"]__main__[\'\"]", outcome.old, re.M) is not None


def changed_entry_scripts(
    outcomes: list[FileOutcome],
) -> tuple[list[FileOutcome], list[FileOutcome]]:
    """The changed entry scripts (a library module has nothing to run), by path: those that run
    as one process, and those that run under a multi-process launcher."""
    entries = sorted(
        (o for o in outcomes if o.changed and _is_entry_script(o)), key=lambda o: o.display
    )
    return [o for o in entries if not _multi_process(o)], [o for o in entries if _multi_process(o)]


def _how_to_verify(outcomes: list[FileOutcome], target: Target) -> list[str]:
    """Entry scripts only, each with its launcher: a library module has nothing to run."""
    single, multi = changed_entry_scripts(outcomes)
    # A scaled-out script (XLA targets only) runs under torchrun, and as one process too.
    single = sorted(single + [o for o in multi if _scaled_out(o)], key=lambda o: o.display)
    if not target.is_xla:
        entries = sorted(single + multi, key=lambda o: o.display)
        lines = ["TorchNeuron has no CPU emulator: run a few steps on a Trn2/Trn3 instance:", ""]
        lines += [f"- {code_span(_launch(o))}" for o in entries] or ["- (no entry script changed)"]
        return lines
    option = "" if target.name == DEFAULT_TARGET else f" --target {target.name}"
    lines: list[str] = []
    if single:
        lines += [
            "On any Linux x86_64 machine, with `pip install torch==2.9.0 torch-xla==2.9.0` "
            "beside trncodemod (XLA on the CPU):",
            "",
            fence(
                "\n".join(f"trncodemod verify{option} {shlex.quote(o.display)}" for o in single),
                "sh",
            ),
        ]
    if multi:
        lines += [
            *([""] if lines else []),
            "Multi-process entry scripts run under their launcher, on a Trainium instance "
            "(`trncodemod verify` runs one process):",
            "",
            fence("\n".join(_launch(o) for o in multi), "sh"),
        ]
    if not lines:
        lines = ["No entry script changed: run the scripts that import the changed modules."]
    return lines


def verification(
    outcomes: list[FileOutcome], target: Target, base: str, python: str, steps: int
) -> tuple[list[str], int]:
    """``trncodemod verify SCRIPT --against BASE`` on each changed single-process entry script
    (run without arguments): the description's section and the worst status (0 same, 1
    different, 2 could not run)."""
    from trncodemod.commands.verify import RuntimeMissing, probe_runtime, probe_torch
    from trncodemod.commands.verify_against import RunOptions, compare_runs

    single, multi = changed_entry_scripts(outcomes)
    lines = [
        "",
        "## Verification",
        "",
        f"`trncodemod verify SCRIPT --against {base[:12]} --steps {steps}`: each entry script "
        "before and after the migration, without arguments, on the CPU (the migrated one on "
        + ("XLA:CPU" if target.is_xla else "the CPU with `neuron` mapped to `cpu`")
        + "); the same seeds, random numbers and dropout masks; each step's loss and the "
        "trained parameters compared within the precision the runs use.",
        "",
    ]
    worst = 0
    try:
        if single:
            probe_runtime(python) if target.is_xla else probe_torch(python)
    except RuntimeMissing as err:
        return [*lines, f"Not run: {err.message}"], 2
    for outcome in single:
        options = RunOptions(python, outcome.path.resolve(), (), steps, 0, False, 600)
        verdict = compare_runs(options, base, target.is_xla, target.name)
        worst = max(worst, verdict.status)
        lines.append(f"- `{outcome.display}`: {verdict.headline()}")
    lines += [f"- `{o.display}`: not run (a multi-process launcher starts it)" for o in multi]
    if not single and not multi:
        lines.append("No entry script changed: nothing to run.")
    return lines, worst


def _launchers(outcome: FileOutcome) -> list[str]:
    return list((outcome.profile or {}).get("launchers", []))


def _multi_process(outcome: FileOutcome) -> bool:
    return _scaled_out(outcome) or any(
        launcher in _LAUNCH and launcher not in (LIGHTNING, HF_TRAINER)
        for launcher in _launchers(outcome)
    )


def _launch(outcome: FileOutcome) -> str:
    """The command line that starts ``outcome``'s script, its path quoted for the shell."""
    path = shlex.quote(outcome.display)
    if _scaled_out(outcome):
        return _SCALED_OUT_LAUNCH.format(path=path)
    for launcher in _launchers(outcome):
        if launcher in _LAUNCH:
            return _LAUNCH[launcher].format(path=path)
    return f"python {path}"


def _by_rule(findings: list[Finding]) -> list[str]:
    lines: list[str] = []
    codes = sorted({f.code for f in findings})
    for code in codes:
        group = [f for f in findings if f.code == code]
        lines += [
            "",
            f"### {code} {group[0].name} ({len(group)})",
            "",
            f"`trncodemod explain {code}` says why and what to do.",
            "",
            *[_review_line(f) for f in group],
        ]
    return lines


def _verdict_section(outcomes: list[FileOutcome], target: Target) -> list[str]:
    """The verdict per entry point (issue 34): the counts, then each entry point's line."""
    from trncodemod.output.report import entry_counts, one_line
    from trncodemod.pipeline.verdicts import judged

    found = judged(outcomes, target.name)
    lines = ["## Verdict", ""]
    if found.nothing:
        return [*lines, f"No verdict: {found.nothing}.", ""]
    lines += [entry_counts(found.entries) + ".", ""]
    lines += [
        f"- `{e.entry}`: {e.value}"
        + (f" (`{e.where}`)" if e.where else "")
        + f": {one_line(e.reason)}"
        for e in found.entries
    ]
    return [*lines, ""]


def describe(outcomes: list[FileOutcome], target: Target, branch: str) -> str:
    """The pull-request description: what blocks first, then the files that failed to migrate,
    then the changes to check, then the findings left by rule, then notes; the applied changes,
    environment and how to verify after."""
    counts = count(outcomes)  # as `check`, JSON, SARIF and a campaign's result count them
    findings = [f for o in outcomes for f in o.findings]
    fixed = [f for f in findings if f.fixed]
    blockers = [f for f in findings if blocks(f)]
    left = [f for f in findings if f.counts_against_exit and not blocks(f)]
    notes = [f for f in findings if not f.fixed and f.severity is Severity.INFO]
    failed = [o for o in outcomes if o.error is not None]
    lines = [
        f"# Migrate to AWS Trainium ({target.name})",
        "",
        f"Generated by `trncodemod` on branch `{branch}` for target `{target.name}`: "
        f"{target.summary}.",
        "",
        f"{plural(counts.files, 'file')}: {counts.changed} changed, "
        f"{plural(counts.errors, 'error')}; {plural(counts.findings, 'finding')}: "
        f"{plural(counts.fixed, 'fix', 'fixes')} ({counts.review} to review), "
        f"{counts.left} left, {plural(counts.notes, 'note')}; "
        f"{plural(counts.blockers, 'blocker')}.",
        "",
        *_verdict_section(outcomes, target),
        "## Blockers",
        "",
    ]
    if blockers:
        lines += [
            f"**{plural(counts.blockers, 'blocker')}: the migrated program will "
            "not run on the accelerator until each is done by hand.**",
            "",
            *[_review_line(f) for f in blockers],
        ]
    elif failed:
        lines.append(
            "None found, but the files below failed to migrate: "
            "nothing is known about what they need."
        )
    else:
        lines.append("None: nothing left stops the program from running on the accelerator.")
    if failed:
        lines += [
            "",
            "## Files that failed",
            "",
            f"**{plural(counts.errors, 'file')} could not be migrated or written, and are "
            "unchanged:**",
            "",
            *[f"- `{o.error_text()}`" for o in failed],
        ]
    review = [f for f in fixed if f.safety.value == "review"]
    lines += ["", "## Changes to review", ""]
    if review:
        lines.append(
            "These rewrites change something a person should check (logging cadence, "
            "numerics, padding):"
        )
        lines.append("")
        lines += [_review_line(f) for f in review]
    else:
        lines.append("None: every applied change keeps behaviour on the target.")
    lines += ["", "## Left to do by hand, by rule"]
    lines += _by_rule(left) if left else ["", "Nothing: no finding is left."]
    if notes:
        lines += ["", "## Notes", "", "Nothing to do; for the record:", ""]
        lines += [f"- {code_span(f.location)} {f.code} {one_line(f.message)}" for f in notes]
    files_by_rule: dict[str, set[str]] = defaultdict(set)
    for finding in fixed:
        files_by_rule[finding.code].add(finding.path)
    counts = Counter(f.code for f in fixed)
    lines += [
        "",
        "## Changes by rule",
        "",
        "| rule | name | files | changes | safety |",
        "|---|---|---|---|---|",
    ]
    for code in sorted(counts):
        rule = rule_by_code(code)
        name = rule.name if rule else ""
        safety = rule.safety.value if rule else ""
        lines.append(
            f"| {code} | {name} | {len(files_by_rule[code])} | {counts[code]} | {safety} |"
        )
    lines += [
        "",
        "## Environment",
        "",
        f"Install from the Neuron package repository (not PyPI): `{target.pins}`.",
    ]
    if target.is_xla:
        lines.append(
            "Compiler flags are appended to `NEURON_CC_FLAGS`, never overwritten "
            "(e.g. `--model-type=transformer` for transformer models; `--auto-cast=none` "
            "where autocast is used)."
        )
    changed = sorted(o.display for o in outcomes if o.changed)
    lines += ["", "## How to verify", "", *_how_to_verify(outcomes, target)]
    lines += ["", "Files changed:", "", *[f"- {code_span(path)}" for path in changed], ""]
    # A file name that is not UTF-8 (surrogates here) is shown as its bytes' escapes, \xe9:
    # a description is UTF-8 text, for a file and for a pull request.
    return "\n".join(lines).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _branch_tip(branch: str, top: Path) -> str | None:
    """The commit ``branch`` points at; None when there is no such branch."""
    result = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", "--end-of-options", f"refs/heads/{branch}"],
        cwd=top,
        capture_output=True,
        text=True,
    )
    return result.stdout.strip() if result.returncode == 0 else None


def current_position(top: Path) -> tuple[str, str]:
    """Where the work tree is: ("branch", name), or ("detached", commit)."""
    result = subprocess.run(
        ["git", "symbolic-ref", "-q", "--short", "HEAD"], cwd=top, capture_output=True, text=True
    )
    if result.returncode == 0 and result.stdout.strip():
        return "branch", result.stdout.strip()
    return "detached", _git("rev-parse", "--verify", "HEAD", cwd=top).strip()


def _return_to(position: tuple[str, str], top: Path) -> None:
    kind, name = position
    if kind == "branch":
        _git("switch", "-q", name, cwd=top)
    else:
        _git("switch", "-q", "--detach", name, cwd=top)


def _shown(position: tuple[str, str]) -> str:
    kind, name = position
    return name if kind == "branch" else f"the detached commit {name[:12]}"


def commit_message(outcomes: list[FileOutcome], target: Target, header: str | None) -> str:
    counts = Counter(f.code for o in outcomes for f in o.findings if f.fixed)
    body = [
        f"{code} {rule.name if (rule := rule_by_code(code)) else ''}: {n}"
        for code, n in sorted(counts.items())
    ]
    title = header or f"Migrate training code to AWS Trainium ({target.name}) with trncodemod"
    return title.rstrip() + "\n\nRules applied:\n" + "\n".join(body) + "\n"


class MissingPath(Exception):
    """A path named for the migration does not exist."""


@dataclass
class MigrationBranch:
    """What ``make_migration_branch`` did: every file's outcome, the files written and committed,
    the files that could not be migrated or written, and the description (of the findings left,
    when nothing changed); ``branch`` is None when nothing changed (no branch was made)."""

    outcomes: list[FileOutcome]
    branch: str | None
    written: list[str]
    errors: list[FileOutcome]
    description: str
    commit: str | None = None  # the migration commit; None when nothing was committed
    returned_to: str = ""  # where the work tree is again, as `_shown` names it
    on_branch: object = None  # what ``on_branch`` returned, run with the migration checked out


class BranchFailed(GitError):
    """Making the branch failed part-way; the work tree is back where it was, and says so."""


def make_migration_branch(
    paths: Sequence[Path],
    settings: Settings,
    top: Path,
    branch: str,
    base: str = "HEAD",
    force: bool = False,
    header: str | None = None,
    jobs: int | None = None,
    run_hooks: bool = False,
    on_branch: Callable[[list[FileOutcome]], object] | None = None,
) -> MigrationBranch:
    """Migrate ``paths`` of the work tree ``top`` onto a new ``branch`` from ``base``, as one
    commit; nothing is pushed. No branch is made when no file changes. Either way the work
    tree ends where it was (its branch, or detached commit), with the files as they were: on
    success the migration is on ``branch``; on any failure (a hook that refuses the commit, an
    interrupt) ``branch`` is as it was before and BranchFailed says so. Only paths inside
    ``top`` are migrated (``containment``: Escape names one that leads out). ``on_branch``
    runs with the migration checked out (verification), before the work tree goes back."""
    not_an_option(branch, "--branch")
    not_an_option(base, "--base")
    for path in paths:
        containment.inside(path, top.resolve())
    profile = load_target(settings.target)
    tip = _branch_tip(branch, top)
    if not force and tip is not None:
        raise GitError(
            f"branch {branch} already exists; pass --force to recreate it from {base}, "
            "or --branch NAME for another"
        )
    found = discover(paths, settings.exclude, settings.root, settings.respect_gitignore)
    if found.missing:
        raise MissingPath(f"no such file or folder: {found.missing[0]}")
    from trncodemod.pipeline.verdicts import proven

    # One finding per cause, as `check` shows and counts them (`counts.count`), after the
    # blockers the evaluator settles.
    outcomes = one_per_cause(
        proven(
            list(migrate_files(list(found.files), settings, jobs)),
            settings.target,
            enabled=enabled_codes(settings.select, settings.ignore),
        )
    )
    errors = [o for o in outcomes if o.error]
    if not any(o.changed for o in outcomes):
        return MigrationBranch(outcomes, None, [], errors, describe(outcomes, profile, branch))
    start = current_position(top)
    _git("switch", "-q", "-C" if force else "-c", branch, "--end-of-options", base, cwd=top)
    written: list[FileOutcome] = []
    try:
        migrated, outcomes = outcomes, write_outcomes(outcomes, paths)  # what was written
        for before, after in zip(migrated, outcomes, strict=True):
            if after.error and not before.error:
                errors.append(after)
            elif after.changed:
                written.append(after)
        commit = None
        if written:
            names = [str(o.path.resolve()) for o in written]
            _git("add", "--", *names, cwd=top)
            message = commit_message(outcomes, profile, header)
            verify = () if run_hooks else ("--no-verify",)
            _git("commit", "-q", *verify, "-m", message, cwd=top, hooks=run_hooks)
            commit = _git("rev-parse", "--verify", "HEAD", cwd=top).strip()
        after = on_branch(outcomes) if on_branch is not None else None
        _return_to(start, top)
    except BaseException as err:
        undone = _undo(written, start, branch, tip, top)
        if isinstance(err, Exception):
            raise BranchFailed(f"{err}\n{undone}") from None
        click.echo(undone, err=True)  # Ctrl-C: said before the command's own line
        raise
    return MigrationBranch(
        outcomes,
        branch,
        [str(o.path.resolve()) for o in written],
        errors,
        describe(outcomes, profile, branch),
        commit,
        _shown(start),
        after,
    )


def _undo(
    written: list[FileOutcome], start: tuple[str, str], branch: str, tip: str | None, top: Path
) -> str:
    """Put the work tree back as ``make_migration_branch`` found it: the files it wrote hold
    what they held, nothing of theirs stays staged, the work tree is on ``start`` again and
    ``branch`` is where it was (``tip``; gone if it did not exist). What it did, for a user."""
    problems = []
    for outcome in written:
        try:
            outcome.path.write_bytes(outcome.old or b"")
        except OSError as err:
            problems.append(f"{outcome.display}: not restored ({err.strerror})")
    try:
        if written:
            _git("reset", "-q", "--", *[str(o.path.resolve()) for o in written], cwd=top)
        _return_to(start, top)
        if tip is None:
            _git("branch", "-q", "-D", "--", branch, cwd=top)
        else:
            _git("branch", "-q", "-f", "--", branch, tip, cwd=top)
    except GitError as err:
        problems.append(str(err))
    if problems:
        return "could not put everything back: " + "; ".join(problems)
    kept = "was not made" if tip is None else f"is back at {tip[:12]}"
    return f"you are back on {_shown(start)} with your files as they were; branch {branch} {kept}"


@click.command("pr")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--branch", help="Branch to create (default: trncodemod/<target>).")
@click.option("--base", default="HEAD", show_default=True, help="Where the branch starts.")
@click.option("--message-file", type=click.File("r"), help="First line(s) of the commit message.")
@click.option("--target", type=click.Choice(target_names()), help="Target profile.")
@click.option("--select", help="Rule codes or prefixes to run.")
@click.option("--ignore", help="Rule codes or prefixes to leave out.")
@click.option("--allow-dirty", is_flag=True, help="Run even with uncommitted changes.")
@click.option(
    "--force", is_flag=True, help="Recreate the branch from --base when it already exists."
)
@click.option(
    "--description",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to write the description (default: inside .git).",
)
@click.option(
    "--verify",
    is_flag=True,
    help="Run `trncodemod verify --against` on each changed entry script (before the migration "
    "against after) and put the verdicts in the description; exit 1 when one differs.",
)
@click.option(
    "--verify-steps",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="With --verify: optimizer steps each run trains.",
)
@click.option(
    "--python",
    default=sys.executable,
    show_default=True,
    help="With --verify: the interpreter with torch (and torch-xla for an XLA target).",
)
@click.option(
    "--run-hooks",
    is_flag=True,
    help="Run the repository's git hooks on the commit (default: none runs; the commit is made "
    "with --no-verify and core.hooksPath=/dev/null).",
)
@ALLOW_CONFIG_PLUGINS
@SCALE_OUT
@SCALE_LR
def pr_command(
    paths,
    branch,
    base,
    message_file,
    target,
    select,
    ignore,
    allow_dirty,
    force,
    description,
    verify,
    verify_steps,
    python,
    run_hooks,
):
    """Create a branch with the migration of PATHS as one commit, and a PR description; the work
    tree stays on the branch it was on, with its files as they were."""
    top = Path(_git("rev-parse", "--show-toplevel", cwd=Path.cwd()).strip())
    if not allow_dirty and _git("status", "--porcelain", cwd=top).strip():
        raise GitError("the work tree has uncommitted changes; commit them or pass --allow-dirty")
    codes = {
        key: tuple(c.strip().upper() for c in value.split(",")) if value else None
        for key, value in (("select", select), ("ignore", ignore))
    }
    try:
        meta = click.get_current_context().meta
        allow = meta.get("allow_config_plugins", False)
        scale = {key: True for key in ("scale_out", "scale_lr") if meta.get(key)}
        settings = load_settings(paths[0], None, allow).with_overrides(
            target=target, **codes, **scale
        )
        enabled_codes(settings.select, settings.ignore)
    except (ConfigError, SelectionError) as err:
        raise click.UsageError(str(err)) from None
    for line in settings.plugin_notices():
        click.echo(line, err=True)
    branch = branch or f"trncodemod/{load_target(settings.target).name}"
    header = message_file.read() if message_file else None
    try:
        not_an_option(base, "--base")
        not_an_option(branch, "--branch")
    except OptionLike as err:
        raise click.UsageError(str(err)) from None
    refuse_escapes(paths, top.resolve())
    base_commit = _git(
        "rev-parse", "--verify", "--end-of-options", f"{base}^{{commit}}", cwd=top
    ).strip()
    profile = load_target(settings.target)

    def verified_here(outcomes: list[FileOutcome]) -> tuple[list[str], int]:
        return verification(outcomes, profile, base_commit, python, verify_steps)

    try:
        made = make_migration_branch(
            paths,
            settings,
            top,
            branch,
            base,
            force,
            header,
            run_hooks=run_hooks,
            on_branch=verified_here if verify else None,
        )
    except MissingPath as err:
        raise click.UsageError(str(err)) from None
    for outcome in made.errors:
        click.echo(outcome.error_text(), err=True)
    if made.branch is None:
        left = count(made.outcomes).left
        click.echo(
            f"nothing to change in {len(made.outcomes)} file(s): no branch created"
            + (f"; {left} finding(s) left, `trncodemod check` lists them" if left else "")
            + (f"; {len(made.errors)} error(s)" if made.errors else "")
            + ".",
            err=True,
        )
        sys.exit(2 if made.errors else 0)
    git_dir = Path(_git("rev-parse", "--absolute-git-dir", cwd=top).strip())
    target_file = description or git_dir / f"trncodemod-pr-{branch.replace('/', '-')}.md"
    text, verified = made.description, 0
    if verify:
        section, verified = made.on_branch  # type: ignore[misc]
        text = text.rstrip("\n") + "\n" + "\n".join(section) + "\n"
    target_file.write_text(text, "utf-8")
    click.echo(str(target_file))
    click.echo(
        f"branch {branch}: {len(made.written)} file(s) changed in one commit"
        f"{'' if made.written else ' (nothing to commit)'}; {len(made.errors)} error(s)"
        f"; {plural(count(made.outcomes).blockers, 'blocker')}"
        + (f"; verify --against: {_VERIFIED[verified]}" if verify else "")
        + f"; you are on {made.returned_to}, as before.",
        err=True,
    )
    sys.exit(2 if made.errors else (1 if verified == 1 else 0))


_VERIFIED = {0: "same", 1: "different", 2: "could not run"}
