"""The result cache: a second run over unchanged files parses nothing and says the same."""

import os
import shutil
import stat
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
    result = _check("--cache-dir", str(repo / ".trncodemod_cache"), str(repo))
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
    assert _check("--cache-dir", str(repo / ".trncodemod_cache"), str(repo)).exit_code == 1
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
def test_check_on_a_read_only_cache_folder_reports_and_runs_without_a_cache(
    tmp_path: Path,
) -> None:
    _script(tmp_path)
    tmp_path.chmod(0o555)
    try:
        result = _check("--cache-dir", str(tmp_path / "cache"), str(tmp_path))
    finally:
        tmp_path.chmod(0o755)
    assert result.exit_code == 1 and "cache disabled" in result.stderr


PLANTED = '{"new": "import os\\nos.system(\\"id\\")\\n", "findings": [], "passes_run": []}'


def _planted_repo(tmp_path: Path, entry: str) -> Path:
    """A repository that ships an entry for its own file where a cache in its tree would look
    (the key is computable from the public tool and the file's text)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "t.py").write_bytes(SCRIPT)
    (repo / "pyproject.toml").write_text('[tool.trncodemod]\ntarget = "xla-2.9"\n')
    settings = Settings(target="xla-2.9")
    path = _cache(repo / ".trncodemod_cache", settings)._path(SCRIPT)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(entry)
    return repo


def _apply(*args: str):
    from click.testing import CliRunner

    from trncodemod.cli import main

    return CliRunner().invoke(main, ["apply", "-j", "1", *args])


@pytest.mark.parametrize("where", ["default", "--cache-dir in the tree"])
def test_an_entry_planted_in_the_tree_writes_nothing_of_its_own(tmp_path: Path, where) -> None:
    repo = _planted_repo(tmp_path, PLANTED)
    options = ["--cache-dir", str(repo / ".trncodemod_cache")] if where != "default" else []
    result = _apply(*options, str(repo))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    migrated = (repo / "t.py").read_text()
    assert "os.system" not in migrated
    assert "torch_xla.device()" in migrated, "the file is migrated as if no entry were there"


@pytest.mark.parametrize("entry", ['{"new": null}', "not json", '{"findings": 3}'])
def test_a_malformed_entry_is_ignored_and_recomputed(tmp_path: Path, entry: str) -> None:
    repo = _planted_repo(tmp_path, entry)
    result = _apply("--cache-dir", str(repo / ".trncodemod_cache"), str(repo))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1, result.stderr  # a blocker-free run with findings left
    assert "torch_xla.device()" in (repo / "t.py").read_text()


WITH_FILES_OF_AT_MOST_300_BYTES = (
    "import resource, signal, sys\n"
    "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)\n"
    "resource.setrlimit(resource.RLIMIT_FSIZE, (300, 300))\n"
    "from trncodemod.cli import main\n"
    "sys.argv[0] = 'trncodemod'\n"
    "main()\n"
)


@pytest.mark.skipif(os.name != "posix", reason="the file-size limit is a POSIX resource")
def test_a_cache_write_that_fails_leaves_no_partial_file(tmp_path: Path) -> None:
    import subprocess
    import sys

    _script(tmp_path)
    cache = tmp_path / "cache"
    command = [sys.executable, "-c", WITH_FILES_OF_AT_MOST_300_BYTES, "check", "-j", "1"]
    result = subprocess.run(
        [*command, "--cache-dir", str(cache), str(tmp_path / "t.py")], capture_output=True
    )
    assert result.returncode == 1, result.stderr.decode()  # the run itself is unharmed
    left = [p.relative_to(cache).as_posix() for p in cache.rglob("*") if p.is_file()]
    assert left == [".gitignore"], "an entry over the limit leaves nothing behind"


def test_check_of_another_folder_keeps_its_cache_out_of_both_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, user_cache_folder: Path
) -> None:
    (tmp_path / "repo").mkdir()
    (tmp_path / "here").mkdir()
    _script(tmp_path / "repo")
    monkeypatch.chdir(tmp_path / "here")
    assert _check("../repo").exit_code == 1
    assert list((tmp_path / "here").iterdir()) == []
    assert [p.name for p in (tmp_path / "repo").iterdir()] == ["t.py"]
    entries = list((user_cache_folder / "trncodemod").rglob("*.json"))
    # The file's entry and the run's verdict (``pipeline.verdicts``).
    assert len(entries) == 2, "the run's entries are in the user's cache folder"


def test_the_signing_key_is_private_to_the_user(tmp_path: Path, user_cache_folder: Path) -> None:
    _script(tmp_path)
    assert _check(str(tmp_path)).exit_code == 1
    key = user_cache_folder / "trncodemod" / "key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    assert len(key.read_bytes()) == 32


def test_a_key_others_can_read_is_not_used(tmp_path: Path, user_cache_folder: Path) -> None:
    _script(tmp_path)
    _check(str(tmp_path))
    (user_cache_folder / "trncodemod" / "key").chmod(0o644)
    result = _check(str(tmp_path))
    assert result.exit_code == 1
    assert "cache disabled" in result.stderr and "not private to this user" in result.stderr


def test_an_entry_copied_to_another_files_name_is_not_served(tmp_path: Path) -> None:
    settings = Settings()
    cache = _cache(tmp_path / "cache", settings)
    engine.migrate_file(_script(tmp_path), "t.py", settings, cache)
    other = SCRIPT + b"# another file\n"
    cache._path(other).parent.mkdir(exist_ok=True)
    shutil.copyfile(cache._path(SCRIPT), cache._path(other))
    assert cache.get(SCRIPT, "t.py") is not None
    assert cache.get(other, "t.py") is None


def test_a_signed_entry_of_another_layout_is_recomputed(tmp_path: Path) -> None:
    settings = Settings()
    cache = _cache(tmp_path / "cache", settings)
    path = cache._path(SCRIPT)
    path.parent.mkdir(parents=True)
    path.write_bytes(cache._seal(path, b'{"new": null}'))
    outcome = engine.migrate_file(_script(tmp_path), "t.py", settings, cache)
    assert outcome.error is None and b"torch_xla.device()" in outcome.new
    assert cache.get(SCRIPT, "t.py") is not None, "replaced by the recomputed entry"


TRAINING = (
    b"import torch\nmodel = torch.nn.Linear(4, 2).cuda()\n"
    b"opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    b"for i in range(3):\n"
    b"    loss = model(torch.randn(2, 4).cuda()).sum()\n"
    b"    loss.backward()\n"
    b"    opt.step()\n"
)


def test_a_result_that_names_its_file_is_never_served_under_another_name(tmp_path: Path) -> None:
    # The scale-out finding's launch line names the script: `torchrun ... a.py`.
    settings = Settings()
    cache = _cache(tmp_path / "cache", settings)
    for name in ("a.py", "sub/b.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes(TRAINING)
    engine.migrate_file(tmp_path / "a.py", "a.py", settings, cache)
    cached = engine.migrate_file(tmp_path / "sub/b.py", "sub/b.py", settings, cache)
    fresh = engine.migrate_file(tmp_path / "sub/b.py", "sub/b.py", settings, None)
    assert cached.findings == fresh.findings
    assert any("b.py" in f.message for f in cached.findings)
    assert not any("a.py" in f.message for f in cached.findings)
    again = engine.migrate_file(tmp_path / "a.py", "a.py", settings, cache)
    assert any("a.py" in f.message for f in again.findings)


def test_a_renamed_file_whose_result_names_no_file_is_served_without_parsing(
    tmp_path: Path, monkeypatch
) -> None:
    settings = Settings()
    cache = _cache(tmp_path / "cache", settings)
    (tmp_path / "t.py").write_bytes(SCRIPT)
    (tmp_path / "renamed.py").write_bytes(SCRIPT)
    first = engine.migrate_file(tmp_path / "t.py", "t.py", settings, cache)

    def fail(*args, **kwargs):
        raise AssertionError("parsed although cached")

    monkeypatch.setattr(migrate, "migrate_text", fail)
    second = engine.migrate_file(tmp_path / "renamed.py", "renamed.py", settings, cache)
    assert second.new == first.new
    assert [f.path for f in second.findings] == ["renamed.py"] * len(first.findings)


def test_the_same_bytes_as_a_notebook_and_as_a_script_are_two_entries(tmp_path: Path) -> None:
    import nbformat

    settings = Settings()
    cache = _cache(tmp_path / "cache", settings)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SCRIPT.decode())]
    raw = nbformat.writes(nb).encode()
    (tmp_path / "n.ipynb").write_bytes(raw)
    (tmp_path / "n.py").write_bytes(raw)
    assert engine.migrate_file(tmp_path / "n.ipynb", "n.ipynb", settings, cache).new is not None
    assert cache.get(raw, "n.py") is None
