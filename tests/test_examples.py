"""The example training scripts: they run on plain CPU torch, and their migration is a clean patch."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "examples"
# Each example and the checkpoint it writes under --out.
CHECKPOINTS = {
    "cnn_mnist.py": "mnist_cnn.pt",
    "text_classifier.py": "classifier.pt",
    "gpt_amp.py": "ckpt.pt",
}


def test_every_example_is_listed():
    assert sorted(p.name for p in EXAMPLES_DIR.glob("*.py")) == sorted(CHECKPOINTS)


@pytest.mark.parametrize("script", sorted(CHECKPOINTS))
def test_example_trains_and_saves_on_cpu(script: str, tmp_path: Path):
    pytest.importorskip(
        "torch", reason="torch is not installed here (CI does not install it): examples not run"
    )
    out = tmp_path / "out"
    # Hide any GPU so that the CPU path, which users without CUDA take, is the one tested.
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
    result = subprocess.run(
        [sys.executable, str(EXAMPLES_DIR / script), "--steps", "3", "--out", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (out / CHECKPOINTS[script]).is_file(), result.stdout


def _trncodemod(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    result = subprocess.run(
        [sys.executable, "-m", "trncodemod", *args], cwd=cwd, capture_output=True, timeout=300
    )
    # 0: nothing left; 1: changes pending or findings left; 2 would be an error.
    assert result.returncode in (0, 1), result.stderr.decode(errors="replace")
    return result


def _copy_examples(root: Path) -> Path:
    shutil.copytree(EXAMPLES_DIR, root / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _git_apply(
    git: str, patch: Path, repo: Path, *options: str
) -> subprocess.CompletedProcess[str]:
    # Outside a work tree `git apply` patches paths relative to the current folder; the ceiling
    # keeps git from finding a repository that happens to hold the temp folder.
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(repo.parent)}
    return subprocess.run(
        [git, "apply", *options, str(patch)], cwd=repo, capture_output=True, text=True, env=env
    )


@pytest.fixture
def git() -> str:
    path = shutil.which("git")
    if path is None:
        pytest.skip("git is not installed: cannot check the patch with `git apply`")
    return path


def test_example_patch_applies_with_git_and_leaves_nothing_to_do(tmp_path: Path, git: str):
    repo = _copy_examples(tmp_path / "repo")
    patch = tmp_path / "examples.patch"
    patch.write_bytes(_trncodemod("apply", "--dry-run", "examples/", cwd=repo).stdout)
    assert patch.stat().st_size, "the examples give the passes work: an empty patch is a bug"

    check = _git_apply(git, patch, repo, "--check", "-v")
    assert check.returncode == 0, check.stderr
    applied = _git_apply(git, patch, repo)
    assert applied.returncode == 0, applied.stderr

    again = _trncodemod("apply", "--dry-run", "examples/", cwd=repo)
    assert again.stdout == b"", again.stdout.decode(errors="replace")


def test_example_patch_is_what_apply_writes(tmp_path: Path, git: str):
    patched = _copy_examples(tmp_path / "patched")
    written = _copy_examples(tmp_path / "written")
    patch = tmp_path / "examples.patch"
    patch.write_bytes(_trncodemod("apply", "--dry-run", "examples/", cwd=patched).stdout)
    applied = _git_apply(git, patch, patched)
    assert applied.returncode == 0, applied.stderr
    _trncodemod("apply", "examples/", cwd=written)

    for script in CHECKPOINTS:
        assert (patched / "examples" / script).read_bytes() == (
            written / "examples" / script
        ).read_bytes(), script
