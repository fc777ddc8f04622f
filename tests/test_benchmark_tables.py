"""The benchmark scripts that rewrite a table of results find it in benchmarks/README.md."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import blocker_review  # noqa: E402
import hunk_review  # noqa: E402
import ports  # noqa: E402
import programs  # noqa: E402
import repos  # noqa: E402

TABLES = [
    (repos, repos.TABLE_START, repos.TABLE_END),
    (hunk_review, hunk_review.START, hunk_review.END),
    (blocker_review, blocker_review.TABLE_START, blocker_review.TABLE_END),
    (ports, ports.TABLE_START, ports.TABLE_END),
    (programs, programs.TABLE_START, programs.TABLE_END),
]


@pytest.mark.parametrize(
    ("script", "start", "end"), TABLES, ids=lambda x: getattr(x, "__name__", "")
)
def test_script_rewrites_its_table_in_the_benchmarks_readme(script, start: str, end: str) -> None:
    assert script.README == BENCHMARKS / "README.md"
    text = script.README.read_text("utf-8")
    assert text.count(start) == 1 and text.count(end) == 1
    assert text.index(start) < text.index(end)


def test_programs_table_is_rewritten_between_its_markers(tmp_path: Path, monkeypatch) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# B\n\n{programs.TABLE_START}\nold\n{programs.TABLE_END}\n\nafter\n")
    monkeypatch.setattr(programs, "README", readme)
    programs.write_readme("| new |")
    assert (
        readme.read_text()
        == f"# B\n\n{programs.TABLE_START}\n| new |\n{programs.TABLE_END}\n\nafter\n"
    )
