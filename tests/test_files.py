"""Discovery: the right Python files, each once, in a stable order."""

import os
from pathlib import Path

from trncodemod.files import discover


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_finds_python_files_sorted_and_skips_other_files(tmp_path: Path) -> None:
    _tree(tmp_path, {"b.py": "", "a/z.py": "", "a/y.py": "", "notes.txt": "", "c.pyi": ""})
    found = discover([tmp_path])
    assert [p.relative_to(tmp_path).as_posix() for p in found.files] == ["a/y.py", "a/z.py", "b.py"]


def test_honours_gitignore_and_configured_excludes(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            ".gitignore": "generated/\n*_pb2.py\n",
            "generated/x.py": "",
            "msg_pb2.py": "",
            "sub/.gitignore": "local.py\n",
            "sub/local.py": "",
            "sub/kept.py": "",
            "third_party/lib.py": "",
            "train.py": "",
        },
    )
    found = discover([tmp_path], exclude=["third_party/"], exclude_root=tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in found.files] == ["sub/kept.py", "train.py"]


def test_tool_folders_are_never_entered(tmp_path: Path) -> None:
    _tree(
        tmp_path, {".venv/lib/x.py": "", ".git/hooks/h.py": "", "node_modules/m.py": "", "t.py": ""}
    )
    assert [p.name for p in discover([tmp_path], respect_gitignore=False).files] == ["t.py"]


def test_symlinks_out_of_the_root_and_symlinked_folders_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    root = tmp_path / "root"
    _tree(tmp_path, {"outside/secret.py": "", "root/inside.py": ""})
    os.symlink(outside / "secret.py", root / "link_out.py")
    os.symlink(root / "inside.py", root / "link_in.py")
    os.symlink(outside, root / "linked_dir")
    os.symlink(root, root / "loop")  # a loop must not hang the walk
    found = discover([root])
    assert [p.name for p in found.files] == ["inside.py"], "the in-root link is the same file"
    assert any("outside" in s.reason for s in found.skipped)


def test_a_folder_named_like_a_python_file_is_a_folder(tmp_path: Path) -> None:
    _tree(tmp_path, {"x.py/inner.py": ""})
    assert [p.name for p in discover([tmp_path]).files] == ["inner.py"]


def test_missing_paths_are_reported(tmp_path: Path) -> None:
    found = discover([tmp_path / "nope.py"])
    assert found.missing == (tmp_path / "nope.py",)
