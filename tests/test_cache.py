"""The result cache: a second run over unchanged files parses nothing and says the same."""

import os
from pathlib import Path

import pytest

from trncodemod.config import Settings
from trncodemod.pipeline import engine, migrate
from trncodemod.pipeline.cache import open_cache
from trncodemod.selection import enabled_codes

SCRIPT = b"import torch\nm = torch.nn.Linear(2, 2).cuda()\nok = torch.cuda.is_available()\n"


def _cache(folder: Path, settings: Settings):
    return open_cache(folder, settings, enabled_codes(settings.select, settings.ignore))


def test_second_run_is_served_from_the_cache_without_parsing(tmp_path, monkeypatch) -> None:
    path = tmp_path / "t.py"
    path.write_bytes(SCRIPT)
    settings = Settings()
    cache = _cache(tmp_path / "cache", settings)
    first = engine.migrate_file(path, "t.py", settings, cache)

    def fail(*args, **kwargs):
        raise AssertionError("parsed although cached")

    monkeypatch.setattr(migrate, "migrate_text", fail)
    second = engine.migrate_file(path, "t.py", settings, cache)
    assert (second.new, second.diff, second.findings) == (first.new, first.diff, first.findings)


@pytest.mark.parametrize("change", [{"target": "neuron"}, {"ignore": ("TRN001",)}])
def test_a_different_setting_is_a_different_entry(tmp_path, change) -> None:
    path = tmp_path / "t.py"
    path.write_bytes(SCRIPT)
    base = Settings()
    engine.migrate_file(path, "t.py", base, _cache(tmp_path / "c", base))
    other = base.with_overrides(**change)
    outcome = engine.migrate_file(path, "t.py", other, _cache(tmp_path / "c", other))
    fresh = engine.migrate_file(path, "t.py", other, None)
    assert (outcome.new, outcome.findings) == (fresh.new, fresh.findings)


def test_files_with_errors_are_not_cached(tmp_path) -> None:
    path = tmp_path / "bad.py"
    path.write_bytes(b"import torch\nx.cuda(\n")
    settings = Settings()
    cache = _cache(tmp_path / "c", settings)
    assert engine.migrate_file(path, "bad.py", settings, cache).error
    assert cache.get(path.read_bytes(), "bad.py") is None


RUN_AND_REPORT_LIBCST = (
    "import sys\n"
    "from trncodemod.cli import main\n"
    "sys.argv = ['trncodemod', *sys.argv[1:]]\n"
    "try:\n"
    "    main()\n"
    "except SystemExit:\n"
    "    pass\n"
    "print('libcst loaded:', 'libcst' in sys.modules, file=sys.stderr)\n"
)


def test_a_run_answered_wholly_from_the_cache_never_loads_libcst(tmp_path) -> None:
    import subprocess
    import sys

    (tmp_path / "t.py").write_bytes(SCRIPT)
    command = [sys.executable, "-c", RUN_AND_REPORT_LIBCST, "apply", "--dry-run", "-j", "1"]
    command += ["--cache-dir", str(tmp_path / "cache"), str(tmp_path / "t.py")]
    first = subprocess.run(command, capture_output=True, cwd=tmp_path)
    second = subprocess.run(command, capture_output=True, cwd=tmp_path)
    assert b"libcst loaded: True" in first.stderr, first.stderr.decode()
    # Start-up without LibCST and the passes: about 0.1 s instead of 0.5 s.
    assert b"libcst loaded: False" in second.stderr, second.stderr.decode()
    assert second.stdout == first.stdout and b"+import torch_xla" in first.stdout
    assert second.stderr.splitlines()[:-1] == first.stderr.splitlines()[:-1]  # same findings


def _snapshot(root: Path) -> dict[str, bytes | str]:
    return {
        p.relative_to(root).as_posix(): (
            "link" if p.is_symlink() else p.read_bytes() if p.is_file() else "dir"
        )
        for p in sorted(root.rglob("*"))
    }


def _check(*args: str):
    from click.testing import CliRunner

    from trncodemod.cli import main

    return CliRunner().invoke(main, ["check", *args], catch_exceptions=False)


def test_a_cache_folder_planted_as_a_symlink_is_not_followed(tmp_path: Path) -> None:
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    repo.mkdir()
    outside.mkdir()
    (repo / "t.py").write_bytes(SCRIPT)
    (repo / "pyproject.toml").write_text('[tool.trncodemod]\ntarget = "xla-2.9"\n')
    (repo / ".trncodemod_cache").symlink_to(outside)
    result = _check(str(repo))
    assert result.exit_code == 1, result.output
    assert "cache disabled" in result.stderr and "symlink" in result.stderr
    assert list(outside.iterdir()) == []


def test_a_dangling_gitignore_symlink_in_the_cache_creates_nothing_outside(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".trncodemod_cache").mkdir(parents=True)
    (repo / "t.py").write_bytes(SCRIPT)
    (repo / "pyproject.toml").write_text('[tool.trncodemod]\ntarget = "xla-2.9"\n')
    target = tmp_path / "created-by-check.txt"
    (repo / ".trncodemod_cache" / ".gitignore").symlink_to(target)
    assert _check(str(repo)).exit_code == 1
    assert not target.exists()


def test_entries_never_go_through_a_planted_symlink(tmp_path: Path) -> None:
    settings = Settings()
    cache = _cache(tmp_path / "cache", settings)
    outside = tmp_path / "outside"
    outside.mkdir()
    entry = cache._path(SCRIPT)
    entry.parent.symlink_to(outside)  # the entry's two-letter folder, planted
    engine.migrate_file(_script(tmp_path), "t.py", settings, cache)
    assert list(outside.iterdir()) == []
    entry.parent.unlink()
    entry.parent.mkdir()
    planted = tmp_path / "planted.json"
    planted.write_text('{"new": "import os\\n", "findings": [], "passes_run": []}')
    entry.symlink_to(planted)  # an entry that is a link is not read
    assert cache.get(SCRIPT, "t.py") is None


def _script(folder: Path) -> Path:
    path = folder / "t.py"
    path.write_bytes(SCRIPT)
    return path


def test_check_without_cache_writes_nothing_in_the_tree(tmp_path: Path) -> None:
    _script(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.trncodemod]\ntarget = "xla-2.9"\n')
    before = _snapshot(tmp_path)
    assert _check("--no-cache", str(tmp_path)).exit_code == 1
    assert _snapshot(tmp_path) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through read-only permissions")
def test_check_on_a_read_only_tree_reports_and_runs_without_a_cache(tmp_path: Path) -> None:
    _script(tmp_path)
    tmp_path.chmod(0o555)
    try:
        result = _check(str(tmp_path))
    finally:
        tmp_path.chmod(0o755)
    assert result.exit_code == 1 and "cache disabled" in result.stderr
