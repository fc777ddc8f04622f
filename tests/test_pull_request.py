"""`trncodemod pr`: one branch, one commit, and a description that lists every rule applied and
every finding left."""

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main
from trncodemod.commands.pull_request import describe
from trncodemod.findings import Finding, Safety, Severity
from trncodemod.pipeline.engine import FileOutcome
from trncodemod.targets import load_target

SCRIPT = """import torch

model = torch.nn.Linear(2, 2).cuda()
if torch.cuda.is_available():
    print("gpu")
state = torch.load("ckpt.pt", map_location="cuda")
"""


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    git("init", "-q", "-b", "main", cwd=tmp_path)
    git("config", "user.email", "t@example.com", cwd=tmp_path)
    git("config", "user.name", "t", cwd=tmp_path)
    (tmp_path / "train.py").write_text(SCRIPT)
    git("add", ".", cwd=tmp_path)
    git("commit", "-qm", "gpu script", cwd=tmp_path)
    return tmp_path


def test_pr_creates_a_branch_with_one_commit_and_a_full_description(repo: Path) -> None:
    result = CliRunner().invoke(main, ["pr", "--select", "TRN0", "."])
    assert result.exit_code == 0, result.output
    assert git("branch", "--show-current", cwd=repo).strip() == "main", "back where it was"
    assert "you are on main, as before" in result.stderr
    assert (repo / "train.py").read_text() == SCRIPT
    log = git("log", "--format=%s%n%b", "main..trncodemod/xla-2.9", cwd=repo)
    assert log.count("Migrate training code") == 1
    assert "TRN001 cuda-method: 1" in log and "TRN005 cuda-map-location: 1" in log
    description = Path(result.stdout.strip()).read_text()
    for code in ("TRN001", "TRN005"):
        assert f"| {code} |" in description
    assert "- [ ] `train.py:4:4` TRN007" in description, "the unfixed finding is a checklist item"
    assert "- [ ] `train.py:6:44` TRN005" in description, "review-class changes are listed"
    assert "torch-neuronx==2.9.*" in description
    assert "trncodemod verify train.py" in description
    assert git("status", "--porcelain", cwd=repo) == ""


def test_the_description_counts_as_check_and_names_the_files_that_failed(repo: Path) -> None:
    (repo / "broken.py").write_text("import torch\nx = torch.ones(1).cuda(\n")
    git("add", ".", cwd=repo)
    git("commit", "-qm", "broken", cwd=repo)
    check = CliRunner().invoke(main, ["check", "--no-cache", "--select", "TRN0", "."])
    result = CliRunner().invoke(main, ["pr", "--select", "TRN0", "."])
    assert result.exit_code == 2, result.output  # a file could not be migrated
    description = Path(result.stdout.strip()).read_text()
    assert "2 files: 1 changed, 1 error; 3 findings: 2 fixes (1 to review), 1 left" in description
    assert "Found 3 findings (2 fixable with `trncodemod apply`, 1 left), 1 error;" in check.stdout
    failed = description[description.index("## Files that failed") :]
    assert failed.split("\n\n")[2].startswith("- `broken.py:2:")
    assert "1 error(s); 0 blockers; you are on main, as before." in result.stderr


def test_pr_refuses_a_dirty_tree(repo: Path) -> None:
    (repo / "train.py").write_text(SCRIPT + "# local edit\n")
    result = CliRunner().invoke(main, ["pr", "."])
    assert result.exit_code == 2
    assert "uncommitted changes" in result.output
    assert git("branch", "--show-current", cwd=repo).strip() == "main"


def test_nothing_to_change_creates_no_branch_and_exits_0(repo: Path) -> None:
    (repo / "train.py").write_text("x = 1\n")
    git("commit", "-qam", "cpu only", cwd=repo)
    result = CliRunner().invoke(main, ["pr", "."])
    assert result.exit_code == 0, result.output
    assert "nothing to change" in result.stderr and "no branch created" in result.stderr
    assert git("branch", "--list", cwd=repo).split() == ["*", "main"]


def test_an_existing_branch_is_named_and_force_recreates_it(repo: Path) -> None:
    git("branch", "trncodemod/xla-2.9", cwd=repo)
    result = CliRunner().invoke(main, ["pr", "."])
    assert result.exit_code == 2
    assert "branch trncodemod/xla-2.9 already exists; pass --force" in result.output
    assert "fatal:" not in result.output
    assert git("branch", "--show-current", cwd=repo).strip() == "main"
    result = CliRunner().invoke(main, ["pr", "--force", "."])
    assert result.exit_code == 0, result.output
    assert git("branch", "--show-current", cwd=repo).strip() == "main"
    assert "Migrate training code" in git(
        "log", "-1", "--format=%s", "trncodemod/xla-2.9", cwd=repo
    )


def _outcome(display: str, profile: dict | None, *findings: Finding) -> FileOutcome:
    return FileOutcome(
        Path(display), display, old=b"x\n", new=b"y\n", findings=findings, profile=profile
    )


def _f(code: str, severity: Severity, fixed: bool = False, line: int = 1) -> Finding:
    return Finding(
        "train.py", line, 1, code, f"message of {code}", code.lower(), severity, Safety.SAFE, fixed
    )


def test_description_leads_with_blockers_then_review_then_rules_then_notes() -> None:
    entry = {"entry_script": True, "launchers": []}
    outcome = _outcome(
        "train.py",
        entry,
        _f("TRN007", Severity.WARNING, line=2),
        _f("TRN998", Severity.BLOCKER, line=9),
        _f("TRN007", Severity.WARNING, line=5),
        _f("TRN990", Severity.INFO, line=3),
    )
    text = describe([outcome], load_target("xla-2.9"), "b")
    order = [
        text.index(h)
        for h in (
            "## Blockers",
            "## Changes to review",
            "## Left to do by hand, by rule",
            "## Notes",
        )
    ]
    assert order == sorted(order)
    blockers = text[text.index("## Blockers") : text.index("## Changes to review")]
    assert "**1 blocker" in blockers and "TRN998" in blockers and "TRN007" not in blockers
    by_rule = text[text.index("### TRN007") : text.index("## Notes")]
    assert by_rule.count("- [ ] `train.py:") == 2 and "TRN990" not in by_rule


def test_how_to_verify_lists_entry_scripts_with_their_launcher() -> None:
    outcomes = [
        _outcome("train.py", {"entry_script": True, "launchers": []}),
        _outcome("ddp.py", {"entry_script": True, "launchers": ["torchrun"]}),
        _outcome("acc.py", {"entry_script": True, "launchers": ["accelerate"]}),
        _outcome("lib/model.py", {"entry_script": False, "launchers": []}),
    ]
    text = describe(outcomes, load_target("xla-2.9"), "b")
    verify = text[text.index("## How to verify") : text.index("Files changed:")]
    assert "trncodemod verify train.py" in verify
    assert "torchrun --nproc_per_node=2 ddp.py" in verify and "verify ddp.py" not in verify
    assert "accelerate launch acc.py" in verify
    assert "model.py" not in verify, "a library module has nothing to run"


def test_a_scaled_out_script_is_launched_on_every_neuroncore_and_verified_as_one_process() -> None:
    scaled = _outcome(
        "train.py",
        {"entry_script": True, "launchers": ["python"]},
        _f("TRN161", Severity.WARNING, True),
    )
    text = describe([scaled], load_target("xla-2.9"), "b")
    verify = text[text.index("## How to verify") : text.index("Files changed:")]
    assert "torchrun --nproc_per_node=32 train.py" in verify
    assert "trncodemod verify train.py" in verify


def test_the_description_shows_any_file_name_as_one_code_span_of_utf8_text() -> None:
    from markdown_it import MarkdownIt

    from trncodemod.commands.pull_request import describe
    from trncodemod.pipeline.engine import FileOutcome
    from trncodemod.targets import load_target

    names = ["a`![x](http://example.invalid/i.png)`.py", "caf\udce9.py"]
    outcomes = []
    for name in names:
        finding = Finding(
            name, 2, 5, "TRN001", "m", "cuda-method", Severity.ERROR, Safety.SAFE, False
        )
        outcomes.append(FileOutcome(Path(name), name, b"a", b"b", findings=(finding,)))
    text = describe(outcomes, load_target("xla-2.9"), "trncodemod/xla-2.9")
    text.encode("utf-8")  # no surrogate left
    assert "caf\\udce9.py" in text or "caf\\xe9.py" in text
    assert "<img" not in MarkdownIt("commonmark").render(text)


def _failing_hook(repo: Path) -> Path:
    ran = repo.parent / "hook-ran"
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text(f"#!/bin/sh\ntouch {ran}\nexit 1\n")
    hook.chmod(0o755)
    return ran


def test_pr_runs_no_hook_of_the_repository_unless_asked(repo: Path) -> None:
    ran = _failing_hook(repo)
    result = CliRunner().invoke(main, ["pr", "."])
    assert result.exit_code == 0, result.output
    assert not ran.exists(), "the pre-commit hook ran unasked"
    assert "Migrate training code" in git(
        "log", "-1", "--format=%s", "trncodemod/xla-2.9", cwd=repo
    )


def test_a_failing_hook_puts_the_user_back_on_their_branch_with_their_tree(repo: Path) -> None:
    ran = _failing_hook(repo)
    result = CliRunner().invoke(main, ["pr", "--run-hooks", "."])
    assert result.exit_code == 2 and ran.exists()
    assert "you are back on main with your files as they were" in result.output
    assert "branch trncodemod/xla-2.9 was not made" in result.output
    assert git("branch", "--show-current", cwd=repo).strip() == "main"
    assert git("status", "--porcelain", cwd=repo) == "", "nothing staged, nothing changed"
    assert (repo / "train.py").read_text() == SCRIPT
    assert git("branch", "--list", cwd=repo).split() == ["*", "main"]


def test_a_failing_hook_with_force_leaves_the_old_branch_where_it_was(repo: Path) -> None:
    git("branch", "trncodemod/xla-2.9", cwd=repo)
    before = git("rev-parse", "trncodemod/xla-2.9", cwd=repo)
    (repo / "other.py").write_text("x = 1\n")
    git("add", ".", cwd=repo)
    git("commit", "-qm", "more", cwd=repo)
    _failing_hook(repo)
    result = CliRunner().invoke(main, ["pr", "--run-hooks", "--force", "."])
    assert result.exit_code == 2
    assert git("rev-parse", "trncodemod/xla-2.9", cwd=repo) == before
    assert git("branch", "--show-current", cwd=repo).strip() == "main"


def test_pr_from_a_detached_head_returns_to_it(repo: Path) -> None:
    head = git("rev-parse", "HEAD", cwd=repo).strip()
    git("switch", "-q", "--detach", head, cwd=repo)
    result = CliRunner().invoke(main, ["pr", "."])
    assert result.exit_code == 0, result.output
    assert f"you are on the detached commit {head[:12]}, as before" in result.stderr
    assert git("rev-parse", "HEAD", cwd=repo).strip() == head


def test_pr_refuses_a_path_through_a_committed_link_out_of_the_repository(
    repo: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "victim.py").write_text(SCRIPT)
    (repo / "train").symlink_to(elsewhere)
    git("add", "train", cwd=repo)
    git("commit", "-qm", "link", cwd=repo)
    result = CliRunner().invoke(main, ["pr", "train/"])
    assert result.exit_code == 2
    assert "is a symlink inside" in result.stderr and "nothing written" in result.stderr
    assert (elsewhere / "victim.py").read_text() == SCRIPT
    assert git("branch", "--list", cwd=repo).split() == ["*", "main"]


@pytest.mark.parametrize("option", ["--base", "--branch"])
def test_a_value_git_would_read_as_an_option_is_refused(repo: Path, option: str) -> None:
    result = CliRunner().invoke(main, ["pr", option, "--output=/tmp/x", "."])
    assert result.exit_code == 2
    assert "starts with '-', which git would read as an option" in result.output


def test_the_description_lists_the_files_that_failed_to_migrate(repo: Path) -> None:
    (repo / "broken.py").write_text("import torch\ndef (:\n")
    git("add", ".", cwd=repo)
    git("commit", "-qm", "broken", cwd=repo)
    result = CliRunner().invoke(main, ["pr", "."])
    assert result.exit_code == 2, "an error is an error"
    description = Path(result.stdout.strip()).read_text()
    assert "## Files that failed" in description
    assert "- `broken.py" in description
    assert description.index("## Blockers") < description.index("## Files that failed")
