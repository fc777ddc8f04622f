"""``trncodemod campaign run SPEC --out DIR`` and ``trncodemod campaign report DIR``."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import click

from trncodemod.campaign.engines import ENGINES, EngineError
from trncodemod.campaign.results import ONLY
from trncodemod.campaign.runner import Options, run_campaign
from trncodemod.campaign.spec import SpecError, load_spec
from trncodemod.pipeline.containment import Escape

EXIT_INTERRUPTED = 130


@click.group("campaign")
def campaign_command() -> None:
    """Migrate a fleet of repositories: one branch, patch and description each, and a report."""


@campaign_command.command("run")
@click.argument("spec", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--out", required=True, type=click.Path(file_okay=False, path_type=Path), help="Results."
)
@click.option(
    "--engine",
    type=click.Choice(ENGINES),
    help="Ray (pip install 'ray>=2.9'), or a local process pool "
    "(default: Ray where it is installed).",
)
@click.option("--address", help="Join the Ray cluster at this address (default: start one here).")
@click.option(
    "--cpus",
    type=click.IntRange(min=1),
    default=lambda: os.cpu_count() or 1,
    show_default="all cores",
    help="Cores on this machine: the local pool's size, or the CPUs of the Ray started here.",
)
@click.option("--retries", type=click.IntRange(min=0), default=2, show_default=True,
              help="Tries again after a failed clone or fetch.")  # fmt: skip
@click.option("--verify", is_flag=True, help="Run `trncodemod verify` on changed entry scripts.")
@click.option(
    "--verify-python",
    default=sys.executable,
    show_default="this interpreter",
    help="Interpreter with torch and torch-xla, for --verify.",
)
@click.option("--only", type=click.Choice(ONLY), help="Only repositories whose last result is so.")
@click.option(
    "--work",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the clones live (default: DIR/.work).",
)
@click.option(
    "--reuse-out",
    is_flag=True,
    help="Write results into an --out folder trncodemod did not make (it marks those it makes "
    "with .trncodemod-made; others that hold files are refused).",
)
@click.option(
    "--reuse-work",
    is_flag=True,
    help="Clone into, force-check-out and clean a --work folder trncodemod did not make "
    "(refused by default).",
)
@click.option(
    "--exit-zero",
    is_flag=True,
    help="Exit 0 even when blockers are left (a repository that failed still exits 1).",
)
def run_command(
    spec: Path,
    out: Path,
    engine: str | None,
    address: str | None,
    cpus: int,
    retries: int,
    verify: bool,
    verify_python: str,
    only: str | None,
    work: Path | None,
    reuse_out: bool,
    reuse_work: bool,
    exit_zero: bool,
) -> None:
    """Migrate every repository SPEC names; each one's result lands in DIR/<name>/. A rerun
    finishes what is not done and keeps what is up to date.

    The summary names each repository that failed and each one with blockers left. Exit 1 when
    a repository failed (clone, timeout, crash) or has a blocker left (recorded now or kept),
    unless --exit-zero forgives the blockers; 0 otherwise; 2 on a usage error."""
    engine = engine or ("ray" if importlib.util.find_spec("ray") else "local")
    if address is not None and engine != "ray":
        raise click.UsageError("--address joins a Ray cluster: use it with --engine ray")
    try:
        jobs = load_spec(spec)
    except SpecError as err:
        raise click.UsageError(str(err)) from None
    options = Options(
        engine=engine,
        address=address,
        cpus=cpus,
        retries=retries,
        only=only,
        verify_python=verify_python if verify else None,
        work=work,
        reuse_out=reuse_out,
        reuse_work=reuse_work,
    )
    try:
        run = run_campaign(jobs, out, options, lambda line: click.echo(line, err=True))
    except (EngineError, Escape) as err:
        raise click.UsageError(str(err)) from None
    except KeyboardInterrupt:
        click.echo(
            "interrupted: the repositories recorded so far are kept; run the same command again "
            "to finish the others",
            err=True,
        )
        sys.exit(EXIT_INTERRUPTED)
    click.echo(run.summary(out), err=True)
    sys.exit(1 if run.failures or (run.blocked and not exit_zero) else 0)


@campaign_command.command("report")
@click.argument("out", type=click.Path(exists=True, file_okay=False, path_type=Path))
def report_command(out: Path) -> None:
    """Write DIR/report.html (one self-contained page), DIR/report.md and DIR/report.sarif
    from the results under DIR."""
    from trncodemod.campaign.report import write_reports

    try:
        written = write_reports(out)
    except OSError as err:
        raise click.ClickException(f"no report written: {err}") from None
    for path in written:
        click.echo(str(path))
