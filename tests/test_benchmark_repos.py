"""The real-repository benchmark's bookkeeping: hunks, their rules and ids, stale verdicts."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import hunk_review  # noqa: E402
import repos  # noqa: E402

BEFORE = "import torch\nx = 1\nmodel.cuda()\noptimizer.step()\nprint(x)\n"
AFTER = "import torch\nimport torch_xla\nx = 1\nmodel.to('xla')\noptimizer.step()\ntorch_xla.sync()\nprint(x)\n"


def test_each_edit_is_its_own_hunk_with_the_rule_whose_line_it_holds():
    hunks = repos.file_hunks("train.py", BEFORE, AFTER)
    fixed = [
        {"path": "train.py", "line": 3, "code": "TRN001"},
        {"path": "train.py", "line": 4, "code": "TRN101"},  # the marker goes in after line 4
    ]
    repos.attribute(hunks, fixed)
    assert [(h.old_start, h.removed, h.added, h.rules) for h in hunks] == [
        (1, [], ["import torch_xla"], [repos.SUPPORT]),
        (3, ["model.cuda()"], ["model.to('xla')"], ["TRN001"]),
        (4, [], ["torch_xla.sync()"], ["TRN101"]),
    ]


def test_a_hunk_keeps_its_id_when_lines_above_it_move():
    moved = "# a new comment\n" + BEFORE, "# a new comment\n" + AFTER
    ids = [h.key("repo") for h in repos.file_hunks("train.py", BEFORE, AFTER)]
    assert ids == [h.key("repo") for h in repos.file_hunks("train.py", *moved)]


def test_a_verdict_whose_hunk_is_gone_is_reported_stale(capsys):
    kept = hunk_review.check_verdicts(
        "hunk",
        [{"id": "aaa", "verdict": "correct"}, {"id": "gone", "verdict": "wrong"}],
        hunk_review.HUNK_VERDICTS,
        {"aaa", "bbb"},
    )
    assert set(kept) == {"aaa"}
    assert "1 stale hunk verdicts" in capsys.readouterr().out
