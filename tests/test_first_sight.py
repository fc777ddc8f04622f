"""The first-sight benchmark's bookkeeping over a small synthetic results folder: a verdict is
counted only while it still names its hunk, and the tally says what was claimed and true."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import hunk_review  # noqa: E402
import repos  # noqa: E402

# benchmarks/run.py is another script: load the first-sight runner by its path.
_spec = importlib.util.spec_from_file_location(
    "first_sight_run", BENCHMARKS / "first_sight" / "run.py"
)
run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run)

BEFORE = "def train():\n    loss.backward()\n\ndef validate():\n    out = model(x)\n"
AFTER = (
    "def train():\n    loss.backward()\n    torch_xla.sync()\n\n"
    "def validate():\n    out = model(x)\n    torch_xla.sync()\n"
)


def _results(cache: Path) -> repos.Repo:
    """One repository's results as `measure` leaves them: two identical cuts in two functions,
    one blocker, one entry point the tool claims runs."""
    repo = repos.Repo("toy", "owner/toy", "0" * 40, ["."], ["single-gpu"])
    hunks = repos.file_hunks("train.py", BEFORE, AFTER)
    for hunk in hunks:
        hunk.rules = ["TRN101"]
    out = cache / "results" / repo.name
    out.mkdir(parents=True)
    (out / "hunks.json").write_text(json.dumps(repos.hunk_rows(repo.name, hunks)))
    blocker = {"id": "b0", "code": "TRN026", "path": "train.py", "line": 2, "fixed": False}
    summary = {
        "name": repo.name,
        "internal_errors": [],
        "blockers": [blocker],
        "entry_points": [{"path": "train.py", "claimed": "runs", "first_blocker": ""}],
    }
    (out / "summary.json").write_text(json.dumps(summary))
    return repo


def _tally(tmp_path: Path, hunk_verdicts: list[dict]):
    repo = _results(tmp_path)
    summaries = repos.load_summaries([repo], tmp_path)
    hunks, blockers, entries = run.items(summaries, tmp_path)
    hv = hunk_review.check_verdicts("hunk", hunk_verdicts, hunk_review.HUNK_VERDICTS, hunks)
    ev = {"toy train.py": {"truth": "does-not"}}
    return hunks, run.tally(summaries, hunks, blockers, entries, hv, {}, ev)["toy"]


def test_a_verdict_is_counted_on_the_hunk_it_was_written_for(tmp_path):
    hunks, _ = _tally(tmp_path / "a", [])
    train, validate = hunks
    verdicts = [
        {"id": train["id"], "where": train["where"], "rules": "TRN101", "verdict": "correct"},
        {"id": validate["id"], "where": validate["where"], "rules": "TRN101", "verdict": "wrong"},
    ]
    _, counts = _tally(tmp_path / "b", verdicts)
    assert (counts["correct"], counts["wrong"], counts["hunk not reviewed"]) == (1, 1, 0)


def test_a_verdict_moved_to_another_function_is_stale_and_not_counted(tmp_path, capsys):
    hunks, _ = _tally(tmp_path / "a", [])
    train, validate = hunks
    # Written for the training loop's cut, stored under the id the validation loop's cut has.
    moved = {"id": validate["id"], "where": train["where"], "rules": "TRN101", "verdict": "correct"}
    _, counts = _tally(tmp_path / "b", [moved])
    assert counts["correct"] == 0 and counts["hunk not reviewed"] == 2
    assert "refused" in capsys.readouterr().out


def test_a_false_runs_claim_is_counted_and_blocks_merging(tmp_path):
    _, counts = _tally(tmp_path, [])
    assert (counts["claimed runs"], counts["truth does-not"], counts["false runs"]) == (1, 1, 1)
    assert counts["mergeable"] == 0
