"""The real-repository benchmark's bookkeeping: hunks, their rules and ids, stale verdicts."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import hunk_review  # noqa: E402
import repos  # noqa: E402

BEFORE = "import torch\nx = 1\nmodel.cuda()\noptimizer.step()\nprint(x)\n"
# The same cut inserted in a training and a validation loop.
TWO_LOOPS = "def train():\n    loss.backward()\n\ndef validate():\n    out = model(x)\n"
TWO_LOOPS_CUT = (
    "def train():\n    loss.backward()\n    torch_xla.sync()\n\n"
    "def validate():\n    out = model(x)\n    torch_xla.sync()\n"
)
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
        [
            {"id": "aaa", "where": "r a.py:1 in f", "rules": "TRN001", "verdict": "correct"},
            {"id": "gone", "verdict": "wrong"},
        ],
        hunk_review.HUNK_VERDICTS,
        [{"id": "aaa", "where": "r a.py:1 in f", "rules": ["TRN001"]}, {"id": "bbb"}],
    )
    assert set(kept) == {"aaa"}
    assert "1 stale hunk verdicts" in capsys.readouterr().out


def test_the_same_line_inserted_in_two_functions_gets_two_ids():
    hunks = repos.file_hunks("train.py", TWO_LOOPS, TWO_LOOPS_CUT)
    rows = repos.hunk_rows("repo", hunks)
    assert [h.scope for h in hunks] == ["train", "validate"]
    assert rows[0]["id"] != rows[1]["id"]
    assert rows[1]["where"] == "repo train.py:5 in validate"
    # The content-only id older verdicts used cannot tell them apart but by order.
    assert rows[1]["legacy_id"] == rows[0]["legacy_id"] + "-2"


def _rows():
    hunks = repos.file_hunks("train.py", TWO_LOOPS, TWO_LOOPS_CUT)
    hunks[0].rules, hunks[1].rules = ["TRN101"], ["TRN101"]
    return repos.hunk_rows("repo", hunks)


def test_a_verdict_whose_stored_place_or_rules_no_longer_match_is_refused(capsys):
    train, validate = _rows()
    verdicts = [
        # Written for the training loop's cut, when the ids were content only: the legacy id
        # "-2" now names the validation loop's cut, at another line.
        {
            "id": train["legacy_id"] + "-2",
            "where": "repo train.py:2",
            "rules": "TRN101",
            "verdict": "correct",
        },
        # Its stored rules are not the hunk's any more.
        {
            "id": train["id"],
            "where": train["where"],
            "rules": "TRN101+TRN104",
            "verdict": "correct",
        },
        # Still its hunk: counted.
        {"id": validate["id"], "where": validate["where"], "rules": "TRN101", "verdict": "wrong"},
    ]
    kept = hunk_review.check_verdicts(
        "hunk", verdicts, hunk_review.HUNK_VERDICTS, [train, validate]
    )
    assert kept == {validate["id"]: verdicts[2]}
    out = capsys.readouterr().out
    assert "2 stale hunk verdicts (refused" in out
    assert "line 2 now 5" in out and "rules TRN101+TRN104 now TRN101" in out


def test_a_verdict_in_another_function_is_refused_though_its_line_is_unchanged():
    train, _ = _rows()
    entry = {"id": train["id"], "where": "repo train.py:2 in evaluate", "rules": "TRN101"}
    assert hunk_review.check_verdicts("hunk", [entry], hunk_review.HUNK_VERDICTS, [train]) == {}


def test_a_verdict_with_its_function_survives_lines_moving_above_it():
    train, _ = _rows()
    entry = {
        "id": train["id"],
        "where": "repo train.py:40 in train",
        "rules": "TRN101",
        "verdict": "correct",
    }
    kept = hunk_review.check_verdicts("hunk", [entry], hunk_review.HUNK_VERDICTS, [train])
    assert list(kept) == [train["id"]]


def test_a_blocker_verdict_at_another_rule_is_refused():
    blocker = {"id": "b1", "repo": "r", "path": "train.py", "line": 7, "code": "TRN006"}
    items = [hunk_review.blocker_item(blocker)]
    entry = {"id": "b1", "where": "r train.py", "line": 7, "rule": "TRN005", "verdict": "true"}

    def kept():
        return hunk_review.check_verdicts(
            "blocker", [entry], hunk_review.BLOCKER_VERDICTS, items, hunk_review.blocker_entry
        )

    assert kept() == {}
    entry["rule"] = "TRN006"
    assert kept() == {"b1": entry}


def test_rekey_moves_a_legacy_verdict_to_the_id_and_place_of_its_hunk(tmp_path):
    train, validate = _rows()
    legacy = {
        "id": train["legacy_id"],
        "where": "repo train.py:2",
        "rules": "TRN101",
        "verdict": "correct",
        "reason": "the step's cut",
    }
    stale = {
        "id": "gone",
        "where": "repo x.py:1",
        "rules": "TRN001",
        "verdict": "wrong",
        "reason": "",
    }
    kept = hunk_review.check_verdicts(
        "hunk", [legacy, stale], hunk_review.HUNK_VERDICTS, [train, validate]
    )
    rekeyed = hunk_review.rekey([legacy, stale], kept, [train, validate])
    assert rekeyed[0] == {**legacy, "id": train["id"], "where": "repo train.py:2 in train"}
    assert rekeyed[1] == stale
    path = tmp_path / "verdicts.toml"
    hunk_review.dump(path, "hunk", rekeyed)
    assert hunk_review.load_toml(path, "hunk") == rekeyed
    # Once re-keyed, it survives its lines moving.
    moved = {**train, "where": "repo train.py:40 in train"}
    again = hunk_review.check_verdicts("hunk", rekeyed[:1], hunk_review.HUNK_VERDICTS, [moved])
    assert list(again) == [train["id"]]


# A validation loop whose cut moves from after its host read to before it: the same inserted
# line in the same function, with the same rules, at another place among its lines.
EVAL = (
    "def validate():\n"
    "    for x in loader:\n"
    "        out = model(x)\n"
    "        total += out.sum().item()\n"
    "    return total\n"
)
EVAL_CUT_AFTER = EVAL.replace(".item()\n", ".item()\n        torch_xla.sync()\n")
EVAL_CUT_BEFORE = EVAL.replace("model(x)\n", "model(x)\n        torch_xla.sync()\n")


def _ids(before: str, after: str, key: str = "id") -> list[str]:
    hunks = repos.file_hunks("eval.py", before, after)
    for hunk in hunks:
        hunk.rules = ["TRN101"]
    return [row[key] for row in repos.hunk_rows("repo", hunks)]


def test_a_cut_that_moves_among_its_lines_gets_a_new_id():
    after, before = _ids(EVAL, EVAL_CUT_AFTER), _ids(EVAL, EVAL_CUT_BEFORE)
    assert after != before
    # The id written before positions were kept could not tell them apart.
    assert _ids(EVAL, EVAL_CUT_AFTER, "prior_id") == _ids(EVAL, EVAL_CUT_BEFORE, "prior_id")


def test_an_unrelated_edit_fifty_lines_away_keeps_the_id():
    filler = "".join(f"step_{n} = {n}\n" for n in range(50))
    edited = filler.replace("step_10 = 10", "step_10 = 11  # tuned")
    base = _ids(filler + EVAL, filler + EVAL_CUT_AFTER)
    assert base == _ids(edited + EVAL, edited + EVAL_CUT_AFTER)
    # Blank and comment lines between the cut and its neighbours do not count either.
    spaced = EVAL.replace("    return total\n", "\n        # done\n    return total\n")
    cut = spaced.replace(".item()\n", ".item()\n        torch_xla.sync()\n")
    assert _ids(filler + EVAL, filler + EVAL_CUT_AFTER) == _ids(filler + spaced, filler + cut)


def test_a_verdict_found_by_a_former_id_is_kept_at_its_line_and_refused_when_moved(capsys):
    (moved,) = repos.hunk_rows(
        "repo", [_rules(h) for h in repos.file_hunks("eval.py", EVAL, EVAL_CUT_BEFORE)]
    )
    (kept,) = repos.hunk_rows(
        "repo", [_rules(h) for h in repos.file_hunks("eval.py", EVAL, EVAL_CUT_AFTER)]
    )
    # Written for the cut after the read (line 4), under the id that left its place out.
    entry = {
        "id": kept["prior_id"],
        "where": "repo eval.py:4 in validate",
        "rules": "TRN101",
        "verdict": "correct",
    }
    check = hunk_review.check_verdicts
    assert check("hunk", [entry], hunk_review.HUNK_VERDICTS, [kept]) == {kept["id"]: entry}
    assert check("hunk", [entry], hunk_review.HUNK_VERDICTS, [moved]) == {}
    assert "line 4 now 3 (moved" in capsys.readouterr().out
    rekeyed = hunk_review.rekey([entry], {kept["id"]: entry}, [kept])
    assert rekeyed == [{**entry, "id": kept["id"]}]


def _rules(hunk):
    hunk.rules = ["TRN101"]
    return hunk


def test_a_notebook_line_is_compared_without_its_json_quoting():
    def code(line: str) -> str:
        return repos.hunk_ids.code_line(line, notebook=True)

    assert code('    "    out = model(x)\\n",') == "out = model(x)"
    assert code('    "\\n",') == ""
    assert code('    "# a note\\n",') == ""


def test_rehunk_gives_the_kept_hunks_the_ids_a_new_run_would(tmp_path):
    (tmp_path / "repos" / "repo").mkdir(parents=True)
    (tmp_path / "repos" / "repo" / "eval.py").write_text(EVAL)
    (tmp_path / "results" / "repo").mkdir(parents=True)
    fresh = repos.hunk_rows(
        "repo", [_rules(h) for h in repos.file_hunks("eval.py", EVAL, EVAL_CUT_AFTER)]
    )
    # As an older run kept them: no lines around, no prior id.
    kept = [{k: v for k, v in row.items() if k not in ("around", "prior_id")} for row in fresh]
    kept[0]["id"] = "old"
    path = tmp_path / "results" / "repo" / "hunks.json"
    path.write_text(json.dumps(kept))
    repos.rehunk("repo", tmp_path)
    assert json.loads(path.read_text()) == json.loads(json.dumps(fresh))
