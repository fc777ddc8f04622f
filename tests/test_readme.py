"""The README is the front door: its two commands are the ones CI and users run, it stays short,
and it and the manual in docs/ link only to pages that exist and speak to users, not to the
people who wrote the code."""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main
from trncodemod.config import KEYS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md")), ROOT / "benchmarks" / "README.md"]
TEST_COMMAND = (
    'python3 -m venv .venv && .venv/bin/pip install -e ".[test]" && .venv/bin/python -m pytest'
)
TRY_COMMAND = (
    "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/trncodemod apply --dry-run "
    "examples/"
)


def test_ci_runs_exactly_the_readme_test_command() -> None:
    readme = README.read_text("utf-8")
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert TEST_COMMAND in readme
    assert ci.strip().splitlines()[-1] == TEST_COMMAND


def test_readme_gives_exactly_two_set_up_commands() -> None:
    readme = README.read_text("utf-8")
    setup = [line for line in readme.splitlines() if line.startswith("python3 -m venv")]
    assert setup == [TRY_COMMAND, TEST_COMMAND]


def test_readme_is_a_front_door_not_a_manual() -> None:
    assert len(README.read_bytes()) <= 16 * 1024


def test_readme_tours_every_main_command() -> None:
    readme = README.read_text("utf-8")
    for command in ("check", "apply --dry-run", "verify", "--against", "pr", "campaign"):
        assert f"**`{command}" in readme or f"`{command}`" in readme, command


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_lead_to_files_and_headings_that_exist(page: Path) -> None:
    text = page.read_text("utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.exists(), f"{page.name}: {target}"
        if anchor and linked.suffix == ".md":
            assert anchor in anchors(linked), f"{page.name}: {target}"


def anchors(page: Path) -> set[str]:
    """GitHub's anchors: headings lower-cased, punctuation dropped, spaces made hyphens."""
    headings = re.findall(r"^#+ (.+)$", page.read_text("utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


# Words that mean something only to the people who worked on the code: their stops, turns and
# issue numbers, the machine they shared.
INSIDE_WORDS = re.compile(
    r"this stop|next stop|this round|last round|\bissue \d+|\bturn \d+|tenants?\b|other sessions"
    r"|reference §|reference R\d|codemod-anchors",
    re.I,
)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pages_speak_to_users(page: Path) -> None:
    found = INSIDE_WORDS.findall(page.read_text("utf-8"))
    assert found == [], f"{page.relative_to(ROOT)}: {found}"


def test_configuration_page_names_every_key() -> None:
    page = (ROOT / "docs" / "configuration.md").read_text("utf-8")
    missing = [key for key in KEYS if not re.search(rf"^#?\s*{re.escape(key)} = ", page, re.M)]
    assert missing == []


def test_the_tour_shows_findings_check_really_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    readme = README.read_text("utf-8")
    shown = [line for line in readme.splitlines() if line.startswith("examples/cnn_mnist.py:")]
    assert shown
    printed = CliRunner().invoke(main, ["check", "--no-cache", "examples/cnn_mnist.py"]).output
    assert [line for line in shown if line not in printed.splitlines()] == []


def test_the_rule_count_the_pages_give_is_the_tool_s() -> None:
    """The README's "(N in all)" and the commands page's "all N rules" name the rules there
    are: one count everywhere."""
    from trncodemod.rules import all_rules

    count = len(all_rules())
    readme = README.read_text("utf-8")
    commands = (ROOT / "docs" / "commands.md").read_text("utf-8")
    assert re.findall(r"\((\d+) in all\)", readme) == [str(count)]
    assert re.findall(r"not of all (\d+) rules", commands) == [str(count)]
