"""`trncodemod pr`: one branch, one commit, and a description that lists every rule applied and
every finding left."""

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main

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
    assert git("branch", "--show-current", cwd=repo).strip() == "trncodemod/xla-2.9"
    log = git("log", "--format=%s%n%b", "main..HEAD", cwd=repo)
    assert log.count("Migrate training code") == 1
    assert "TRN001 cuda-method: 1" in log and "TRN005 cuda-map-location: 1" in log
    description = Path(result.stdout.strip()).read_text()
    for code in ("TRN001", "TRN005"):
        assert f"| {code} |" in description
    assert "- [ ] `train.py:4` TRN007" in description, "the unfixed finding is a checklist item"
    assert "- [ ] `train.py:6` TRN005" in description, "review-class changes are listed"
    assert "torch-neuronx==2.9.*" in description
    assert "trncodemod verify train.py" in description
    assert git("status", "--porcelain", cwd=repo) == ""


def test_pr_refuses_a_dirty_tree(repo: Path) -> None:
    (repo / "train.py").write_text(SCRIPT + "# local edit\n")
    result = CliRunner().invoke(main, ["pr", "."])
    assert result.exit_code == 2
    assert "uncommitted changes" in result.output
    assert git("branch", "--show-current", cwd=repo).strip() == "main"
