"""One containment rule for every command that writes (``trncodemod.pipeline.containment``): a
symlink may lead only inside the work tree that holds it, nothing is written inside ``.git``,
folders the tool did not make are not taken over, and a scanned repository cannot loosen the
limits that bound hostile input."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main
from trncodemod.config import Settings, load_settings
from trncodemod.pipeline.containment import MARKER, Escape, NotMade, claim, resolve, root_of

SCRIPT = "import torch\nmodel = torch.nn.Linear(2, 2).cuda()\n"


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture
def linked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A repository that commits ``train -> <a folder of the user's outside it>``."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "victim.py").write_text(SCRIPT)
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", cwd=repo)
    (repo / "train").symlink_to(elsewhere)
    (repo / "own.py").write_text(SCRIPT)
    monkeypatch.chdir(repo)
    return repo.resolve(), elsewhere.resolve()


@pytest.mark.parametrize("named", ["train", "train/", "train/victim.py", "train/sub/deeper"])
def test_a_link_leading_out_of_its_work_tree_is_refused_at_any_depth(linked, named) -> None:
    repo, elsewhere = linked
    with pytest.raises(Escape, match=f"{repo / 'train'} is a symlink inside {repo} that leads to"):
        resolve(named)


def test_a_users_own_link_above_the_repository_is_followed(tmp_path: Path) -> None:
    real = tmp_path / "disk" / "repo"
    real.mkdir(parents=True)
    git("init", "-q", cwd=real)
    (tmp_path / "work").symlink_to(tmp_path / "disk")
    assert resolve(tmp_path / "work" / "repo" / "a.py") == real.resolve() / "a.py"


def test_a_link_inside_its_work_tree_is_followed(linked) -> None:
    repo, _ = linked
    (repo / "alias").symlink_to(repo / "own.py")
    assert resolve("alias") == repo / "own.py"
    assert root_of("alias") == repo, "a named file's root is the folder holding its name"


def test_apply_refuses_a_committed_link_it_is_named_through_and_writes_nothing(linked) -> None:
    repo, elsewhere = linked
    for named in ("train/", "train/victim.py"):
        result = CliRunner().invoke(main, ["apply", "--no-cache", named])
        assert result.exit_code == 2
        shown = named.rstrip("/")
        assert f"{shown}: refused: {repo / 'train'} is a symlink inside {repo}" in result.stderr
    assert (elsewhere / "victim.py").read_text() == SCRIPT
    assert (repo / "own.py").read_text() == SCRIPT, "a refused run writes nothing at all"


def test_apply_dot_still_migrates_the_repository_and_skips_the_link(linked) -> None:
    repo, elsewhere = linked
    result = CliRunner().invoke(main, ["apply", "--no-cache", "."])
    assert result.exit_code == 0, result.output
    assert "torch_xla" in (repo / "own.py").read_text()
    assert (elsewhere / "victim.py").read_text() == SCRIPT


def test_a_cache_dir_under_a_planted_link_is_not_created(linked) -> None:
    repo, elsewhere = linked
    result = CliRunner().invoke(main, ["check", "--cache-dir", "train/cache/deep", "own.py"])
    assert "warning: cache disabled: train/cache/deep:" in result.stderr
    assert not (elsewhere / "cache").exists()


@pytest.mark.parametrize("name", [".git/config", ".GIT/config", "sub/.git/hooks/pre-commit"])
def test_apply_patch_refuses_a_path_inside_git_as_git_apply_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    git("init", "-q", cwd=tmp_path)
    monkeypatch.chdir(tmp_path)
    config = (tmp_path / ".git" / "config").read_text()
    patch = f"--- a/{name}\n+++ b/{name}\n@@ -1,1 +1,2 @@\n [core]\n+\tfsmonitor = touch PWNED\n"
    (tmp_path / "evil.patch").write_text(patch)
    result = CliRunner().invoke(main, ["apply-patch", "evil.patch"])
    assert result.exit_code == 2
    assert "inside .git, which only git writes" in result.stderr
    assert (tmp_path / ".git" / "config").read_text() == config


def test_a_folder_the_tool_did_not_make_is_refused_unless_adopted(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine\n")
    with pytest.raises(NotMade, match="pass --reuse-out"):
        claim(mine, flag="--reuse-out")
    assert not (mine / MARKER).exists()
    assert claim(mine, adopt=True) == mine and (mine / MARKER).is_file()
    assert claim(mine) == mine, "marked: the tool's from now on"
    assert claim(tmp_path / "new" / "deep") == tmp_path / "new" / "deep"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert (claim(empty) / MARKER).is_file()


@pytest.mark.parametrize(
    "line",
    ["max-file-bytes = 0", "max-file-bytes = 50000000", "max-worker-memory = 0"],
)
def test_a_repositorys_configuration_cannot_loosen_the_limits(tmp_path: Path, line: str) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.trncodemod]\n{line}\n")
    settings = load_settings(tmp_path)
    assert settings.max_file_bytes == Settings.max_file_bytes
    assert settings.max_worker_memory == Settings.max_worker_memory
    assert any("may only tighten" in note for note in settings.plugin_notices())
    chosen = load_settings(tmp_path, tmp_path / "pyproject.toml")  # the user's own --config
    key, _, value = line.partition(" = ")
    assert getattr(chosen, key.replace("-", "_")) == int(value)


def test_a_repositorys_configuration_may_tighten_the_limits(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[tool.trncodemod]\nmax-file-bytes = 1000\nmax-worker-memory = 512\n"
    )
    settings = load_settings(tmp_path)
    assert (settings.max_file_bytes, settings.max_worker_memory) == (1000, 512)
    assert settings.plugin_notices() == []


def test_a_big_file_stays_bounded_when_the_repository_switches_the_limit_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.trncodemod]\nmax-file-bytes = 0\n")
    row = "    (1, 2.5, 'row'),\n"
    (tmp_path / "big.py").write_text(
        "import torch\nT = [\n" + row * (1_500_000 // len(row)) + "]\n"
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--no-cache", "big.py"])
    assert "over `max-file-bytes` (1,000,000)" in result.output
    assert "tries to loosen `max-file-bytes = 0`; ignored" in result.stderr


def test_a_run_started_in_the_home_folder_follows_the_users_own_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import trncodemod.pipeline.containment as containment

    home = (tmp_path / "home").resolve()
    (home / "proj").mkdir(parents=True)
    (tmp_path / "data").mkdir()
    (home / "proj" / "data").symlink_to(tmp_path / "data")
    monkeypatch.setattr(containment, "_NOT_WORK_TREES", {Path("/"), home})
    monkeypatch.chdir(home)
    assert resolve("proj/data/x.py") == (tmp_path / "data" / "x.py").resolve()
    monkeypatch.chdir(home / "proj")
    with pytest.raises(Escape, match="is a symlink inside"):
        resolve("data/x.py")
