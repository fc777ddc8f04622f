"""The result cache: a second run over unchanged files parses nothing and says the same."""

from pathlib import Path

import pytest

from trncodemod import engine, migrate
from trncodemod.cache import open_cache
from trncodemod.config import Settings
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
