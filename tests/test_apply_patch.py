"""`trncodemod apply-patch`: a reviewed (edited) patch applies; a stale one writes nothing."""

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main
from trncodemod.output.patch import build_file_diff

SCRIPT = (
    "import torch\n\nmodel = torch.nn.Linear(2, 2).cuda()\n"
    + "".join(f"x{i} = {i}\n" for i in range(12))
    + "batch = torch.zeros(2).cuda()\n"
)


@pytest.fixture
def patched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text(SCRIPT)
    result = CliRunner().invoke(
        main, ["apply", "--dry-run", "--no-cache", "--patch", "m.patch", "."]
    )
    assert result.exit_code == 1
    assert (tmp_path / "m.patch").read_text().count("@@ ") == 2, "two hunks to choose from"
    return tmp_path


def _drop_last_hunk(patch: str) -> str:
    return patch[: patch.rindex("@@ -")]


def test_edited_patch_applies_only_the_hunks_left_in_it(patched: Path) -> None:
    (patched / "m.patch").write_text(_drop_last_hunk((patched / "m.patch").read_text()))
    result = CliRunner().invoke(main, ["apply-patch", "m.patch"])
    assert result.exit_code == 0, result.stderr
    text = (patched / "train.py").read_text()
    assert "Linear(2, 2).to(torch_xla.device())" in text
    assert "batch = torch.zeros(2).cuda()" in text, "the deleted hunk was not applied"


def test_stale_patch_is_refused_and_nothing_is_written(patched: Path) -> None:
    edited = SCRIPT.replace("model =", "net =")
    (patched / "train.py").write_text(edited)
    result = CliRunner().invoke(main, ["apply-patch", "m.patch"])
    assert result.exit_code == 2
    assert "train.py: refused" in result.stderr
    assert (patched / "train.py").read_text() == edited


def test_check_writes_nothing(patched: Path) -> None:
    result = CliRunner().invoke(main, ["apply-patch", "--check", "m.patch"])
    assert result.exit_code == 0
    assert (patched / "train.py").read_text() == SCRIPT


def test_garbage_is_a_usage_error(patched: Path) -> None:
    (patched / "bad.patch").write_text("@@ nonsense\n")
    assert CliRunner().invoke(main, ["apply-patch", "bad.patch"]).exit_code == 2


def _patch_for(name: str, old: str = "x = 1\n", new: str = "x = 2\n") -> str:
    return f"--- a/{name}\n+++ b/{name}\n@@ -1 +1 @@\n-{old}+{new}"


@pytest.mark.parametrize(
    "name", ["../outside.py", "sub/../../outside.py", "{outside}", "link/outside.py"]
)
def test_a_patch_naming_a_file_outside_the_folder_is_refused_and_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    victim = tmp_path / "outside.py"
    victim.write_text("x = 1\n")
    (project / "link").symlink_to(tmp_path)
    monkeypatch.chdir(project)
    patch = _patch_for(name.format(outside=victim))
    if name == "{outside}":  # an absolute path, with no a/ b/ prefixes
        patch = patch.replace(f"a/{victim}", str(victim)).replace(f"b/{victim}", str(victim))
    (project / "m.patch").write_text(patch)
    result = CliRunner().invoke(main, ["apply-patch", "m.patch"])
    assert result.exit_code == 2, result.stderr
    assert "refused" in result.stderr and "outside.py" in result.stderr
    assert "0 file(s) applied, 1 refused" in result.stderr
    assert victim.read_text() == "x = 1\n"


def test_a_patch_inside_the_folder_still_applies_through_a_symlink_that_stays_inside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "t.py").write_text("x = 1\n")
    (tmp_path / "alias").symlink_to(tmp_path / "real")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.patch").write_text(_patch_for("alias/t.py"))
    result = CliRunner().invoke(main, ["apply-patch", "m.patch"])
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "real" / "t.py").read_text() == "x = 2\n"


@pytest.mark.parametrize("name", ["../outside.py", "link/outside.py", "new.py"])
def test_a_refused_file_says_refused_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (tmp_path / "outside.py").write_text("x = 1\n")
    (project / "link").symlink_to(tmp_path)
    monkeypatch.chdir(project)
    patch = _patch_for(name)
    if name == "new.py":  # a created file
        patch = "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+x = 2\n"
    (project / "m.patch").write_text(patch)
    result = CliRunner().invoke(main, ["apply-patch", "m.patch"])
    assert result.exit_code == 2
    assert result.stderr.count("refused:") == 1, result.stderr


def test_a_file_saved_after_the_patch_was_checked_keeps_the_save(
    patched: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from trncodemod.commands import reviewed_patch

    saved = SCRIPT + "# saved by an editor\n"
    real_plan = reviewed_patch.plan

    def plan_then_save(patch: bytes, root: Path):
        results = real_plan(patch, root)
        (patched / "train.py").write_text(saved)  # the save lands between check and write
        return results

    monkeypatch.setattr(reviewed_patch, "plan", plan_then_save)
    result = CliRunner().invoke(main, ["apply-patch", "m.patch"])
    assert result.exit_code == 2
    assert "train.py: refused: file changed on disk after it was read" in result.stderr
    assert (patched / "train.py").read_text() == saved


@pytest.mark.parametrize("name", ["foo\nbar.py", "café.py"])
def test_a_patch_of_a_file_with_an_unusual_name_applies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(SCRIPT)
    made = CliRunner().invoke(main, ["apply", "--dry-run", "--no-cache", "--patch", "m.patch", "."])
    assert made.exit_code == 1, made.stderr
    result = CliRunner().invoke(main, ["apply-patch", "m.patch"])
    assert result.exit_code == 0, result.stderr
    assert "Linear(2, 2).to(torch_xla.device())" in (tmp_path / name).read_text()


LINES = "".join(f"x{i} = 1\n" for i in range(12))


def _two_sections(second_from: str, second_to: str) -> bytes:
    """A patch with two sections for t.py, as `cat a.patch b.patch` makes: the first changes x0,
    the second turns ``second_from`` into ``second_to``."""
    first = LINES.replace("x0 = 1", "x0 = 2")
    return build_file_diff("t.py", LINES.encode(), first.encode()) + build_file_diff(
        "t.py", second_from.encode(), second_to.encode()
    )


def test_two_sections_for_one_file_apply_in_turn_as_git_apply_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.patch").write_bytes(_two_sections(LINES, LINES.replace("x11 = 1", "x11 = 2")))
    expected = LINES.replace("x0 = 1", "x0 = 2").replace("x11 = 1", "x11 = 2")
    (tmp_path / "t.py").write_text(LINES)
    subprocess.run(["git", "apply", "m.patch"], check=True, capture_output=True)
    assert (tmp_path / "t.py").read_text() == expected, "what git apply does"
    (tmp_path / "t.py").write_text(LINES)
    result = CliRunner().invoke(main, ["apply-patch", "m.patch"])
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "t.py").read_text() == expected
    assert "1 file(s) applied, 0 refused" in result.stderr


def test_a_later_section_that_no_longer_applies_refuses_the_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # The second section also expects `x0 = 1`, which the first has changed: git apply fails.
    (tmp_path / "m.patch").write_bytes(_two_sections(LINES, LINES.replace("x0 = 1", "x0 = 3")))
    (tmp_path / "t.py").write_text(LINES)
    result = CliRunner().invoke(main, ["apply-patch", "m.patch"])
    assert result.exit_code == 2
    assert "t.py: refused" in result.stderr and "earlier section" in result.stderr
    assert (tmp_path / "t.py").read_text() == LINES
