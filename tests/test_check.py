"""`trncodemod check` and `apply --annotate`, end to end: streams, exit codes, files on disk."""

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main

SCRIPT = """import torch

model = torch.nn.Linear(4, 2).cuda()
if torch.cuda.is_available():
    print("gpu")
"""


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


NO_FINDINGS = "xla-2.9: No findings; no verdict: no training step reached from 1 entry point.\n"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text(SCRIPT)
    return tmp_path


def test_check_lists_fixable_and_unfixable_findings_on_stdout_and_writes_nothing(
    tree: Path,
) -> None:
    code, out, err = run("check", ".")
    assert code == 1
    assert out.splitlines() == [
        "train.py:3:9: TRN001 [*] .cuda() → .to(torch_xla.device())",
        "train.py:4:4: TRN007 torch.cuda.is_available() is False on Trainium: the code it guards "
        "takes the CPU path",
        "xla-2.9: Found 2 findings (1 fixable with `trncodemod apply`, 1 left); no verdict: no "
        "training step reached from 1 entry point.",
    ]
    assert err == ""
    assert (tree / "train.py").read_text() == SCRIPT
    assert not list(tree.glob("*.tmp"))


def test_check_on_a_clean_tree_exits_zero(tree: Path) -> None:
    (tree / "train.py").write_text("import torch\n\nx = torch.ones(2)\n")
    assert run("check", ".") == (0, NO_FINDINGS, "")


def test_check_exit_zero_still_prints_the_findings(tree: Path) -> None:
    code, out, _ = run("check", "--exit-zero", ".")
    assert code == 0 and "TRN001 [*]" in out


def test_check_exits_two_on_a_file_it_cannot_parse_and_names_it_on_stderr(tree: Path) -> None:
    (tree / "broken.py").write_text("import torch\ndef f(:\n")
    code, out, err = run("check", ".")
    assert code == 2
    assert "broken.py:2:" in err and "syntax error" in err
    assert "TRN001" in out, "the other files are still checked"


def test_check_exits_two_on_a_missing_path(tree: Path) -> None:
    code, _, err = run("check", "nope.py")
    assert code == 2 and "nope.py: no such file" in err


def test_check_honours_select_ignore_and_target(tree: Path) -> None:
    _, out, _ = run("check", "--select", "TRN007", ".")
    assert "TRN001" not in out and "TRN007" in out
    _, out, _ = run("check", "--ignore", "TRN0", ".")
    assert out == NO_FINDINGS
    _, out, _ = run("check", "--target", "neuron", ".")
    assert 'TRN001 [*] .cuda() → .to(torch.device("neuron"))' in out


def test_check_after_apply_reports_only_what_is_left_for_a_person(tree: Path) -> None:
    assert run("apply", ".")[0] == 1
    code, out, _ = run("check", ".")
    assert code == 1
    assert "[*]" not in out and "TRN007" in out and "TRN001" not in out


def test_check_and_apply_dry_run_agree_on_what_is_fixable(tree: Path) -> None:
    _, check_out, _ = run("check", "--format", "json", ".")
    _, _, apply_err = run("apply", "--dry-run", "--format", "json", ".")
    check, dry = json.loads(check_out), json.loads(apply_err)
    assert check["findings"] == dry["findings"]
    assert (check["mode"], dry["mode"]) == ("check", "dry-run")


def test_statistics_prints_one_row_per_rule_with_counts_and_the_fixable_mark(tree: Path) -> None:
    (tree / "more.py").write_text("import torch\nm = torch.nn.Linear(2, 2).cuda()\n")
    code, out, _ = run("check", "--statistics", ".")
    assert code == 1
    assert out.splitlines() == [
        "2  TRN001  [*] cuda-method",
        "1  TRN007      cuda-availability-check",
    ]


def test_statistics_refuses_sarif(tree: Path) -> None:
    code, _, err = run("check", "--statistics", "--format", "sarif", ".")
    assert code == 2 and "--statistics" in err


def test_check_uses_the_cache_and_gives_the_same_answer(tree: Path, user_cache_folder) -> None:
    first = run("check", ".")
    assert list((user_cache_folder / "trncodemod" / "results").rglob("*.json"))
    assert run("check", ".") == first
    assert run("check", "--no-cache", ".") == first


# -- apply --annotate ---------------------------------------------------------------------------

ANNOTATED = """import torch
import torch_xla

model = torch.nn.Linear(4, 2).to(torch_xla.device())
# TODO(trncodemod): TRN007 torch.cuda.is_available() is False on Trainium: the code it guards takes the CPU path
if torch.cuda.is_available():
    print("gpu")
"""


def test_annotate_writes_a_todo_above_each_finding_left_for_a_person(tree: Path) -> None:
    code, _, err = run("apply", "--annotate", ".")
    assert code == 1, "the finding is still left for a person"
    assert (tree / "train.py").read_text() == ANNOTATED
    assert "train.py:4:4: TRN007" in err


def test_annotate_twice_adds_nothing(tree: Path) -> None:
    run("apply", "--annotate", ".")
    code, out, _ = run("apply", "--annotate", "--dry-run", ".")
    assert (code, out) == (0, "")
    run("apply", "--annotate", ".")
    assert (tree / "train.py").read_text() == ANNOTATED


def test_annotate_is_in_the_same_patch_as_the_rewrites(tree: Path) -> None:
    _, patch, _ = run("apply", "--annotate", "--dry-run", ".")
    assert "+model = torch.nn.Linear(4, 2).to(torch_xla.device())" in patch
    assert "+# TODO(trncodemod): TRN007" in patch
    assert patch.count("+++ b/train.py") == 1
    result = subprocess.run(["git", "apply", "-"], input=patch.encode(), cwd=tree)
    assert result.returncode == 0
    assert (tree / "train.py").read_text() == ANNOTATED


def test_annotate_uses_the_indentation_and_goes_above_a_multi_line_statement(tree: Path) -> None:
    (tree / "train.py").write_text(
        "import torch\n\n\ndef pick():\n    ok = (\n        torch.cuda.is_available()\n"
        "        and True\n    )\n    return ok\n"
    )
    run("apply", "--annotate", ".")
    lines = (tree / "train.py").read_text().splitlines()
    assert lines[4].startswith("    # TODO(trncodemod): TRN007 torch.cuda.is_available()")
    assert lines[5] == "    ok = ("


def test_annotate_recognises_an_existing_todo_for_the_same_code(tree: Path) -> None:
    text = SCRIPT.replace(
        "if torch", "# TODO(trncodemod): TRN007 decided: CPU path is fine here\nif torch"
    )
    (tree / "train.py").write_text(text)
    run("apply", "--annotate", ".")
    after = (tree / "train.py").read_text()
    assert after.count("TODO(trncodemod)") == 1
    assert "decided: CPU path is fine here" in after


def test_annotate_leaves_a_suppressed_finding_alone(tree: Path) -> None:
    text = SCRIPT.replace(
        "if torch.cuda.is_available():", "if torch.cuda.is_available():  # noqa: TRN007"
    )
    (tree / "train.py").write_text(text)
    code, _, _ = run("apply", "--annotate", ".")
    assert code == 0
    assert "TODO" not in (tree / "train.py").read_text()


def test_annotate_keeps_the_file_encoding_and_newlines(tree: Path) -> None:
    latin = (
        "# -*- coding: latin-1 -*-\r\nimport torch\r\n# café\r\nok = torch.cuda.is_available()\r\n"
    )
    (tree / "train.py").write_bytes(latin.encode("latin-1"))
    run("apply", "--annotate", ".")
    after = (tree / "train.py").read_bytes()
    assert "# café".encode("latin-1") in after
    assert b"\r\n# TODO(trncodemod): TRN007 torch.cuda.is_available() is False" in after
    assert b"\n" not in after.replace(b"\r\n", b"")


def test_without_annotate_apply_adds_no_comment(tree: Path) -> None:
    run("apply", ".")
    assert "TODO" not in (tree / "train.py").read_text()
