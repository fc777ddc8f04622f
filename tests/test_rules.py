"""The rule catalogue: unique codes, complete documentation, and a rules page that says the same."""

import re
from pathlib import Path

from click.testing import CliRunner

from trncodemod.cli import main
from trncodemod.rules import all_rules
from trncodemod.selection import rule_codes

RULES_PAGE = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def test_codes_and_names_are_unique_and_well_formed() -> None:
    rules = all_rules()
    assert len({r.code for r in rules}) == len(rules)
    assert len({r.name for r in rules}) == len(rules)
    assert all(re.fullmatch(r"TRN\d{3}", r.code) for r in rules)


def test_every_rule_documents_what_why_example_and_fix() -> None:
    for rule in all_rules():
        doc = rule.doc()
        for section in ("## What it does", "## Why", "## Example", "## Use instead"):
            assert section in doc, f"{rule.code} lacks {section}"
        assert rule.source, f"{rule.code} names no source for its facts"


def test_rules_page_table_matches_the_catalogue() -> None:
    table = CliRunner().invoke(main, ["rules", "--format", "markdown"]).output.strip()
    text = RULES_PAGE.read_text("utf-8")
    start = text.index("<!-- rules:start -->") + len("<!-- rules:start -->")
    end = text.index("<!-- rules:end -->")
    assert text[start:end].strip() == table, (
        "docs/rules.md is stale: regenerate its table with `trncodemod rules --format markdown`"
    )


def test_code_list_for_selection_matches_the_catalogue() -> None:
    # `--select`/`--ignore` are resolved from this list so that a fully cached run never
    # imports the passes; regenerate it from the catalogue when a rule is added.
    assert list(rule_codes()) == [rule.code for rule in all_rules()], (
        "trncodemod/data/rule_codes.txt is stale: write one code per line from "
        "`trncodemod.rules.all_rules()`"
    )
