"""The result cache: a second run over unchanged files parses nothing and says the same."""

from pathlib import Path

import pytest

from trncodemod import engine
from trncodemod.cache import open_cache
from trncodemod.config import Settings
from trncodemod.rules import enabled_codes

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

    monkeypatch.setattr(engine, "migrate_text", fail)
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
