"""The rule catalogue: unique codes, complete documentation with public sources, and a rule
reference (docs/rules.md) that says the same."""

import re
from pathlib import Path

from click.testing import CliRunner

from trncodemod.cli import main
from trncodemod.output.rule_docs import REGENERATE
from trncodemod.rules import all_rules
from trncodemod.selection import rule_codes
from trncodemod.sources import CITATION, all_sources, cited_keys

ROOT = Path(__file__).resolve().parent.parent
RULES_PAGE = ROOT / "docs" / "rules.md"


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


def test_code_list_for_selection_matches_the_catalogue() -> None:
    # `--select`/`--ignore` are resolved from this list so that a fully cached run never
    # imports the passes; regenerate it from the catalogue when a rule is added.
    assert list(rule_codes()) == [rule.code for rule in all_rules()], (
        "trncodemod/data/rule_codes.txt is stale: write one code per line from "
        "`trncodemod.rules.all_rules()`"
    )


def test_docs_rules_page_is_the_generated_reference() -> None:
    page = CliRunner().invoke(main, ["rules", "--format", "markdown"]).output
    assert RULES_PAGE.read_text("utf-8") == page, (
        f"docs/rules.md is stale: regenerate it with `{REGENERATE}`"
    )


def test_every_rule_cites_public_sources_that_exist() -> None:
    sources = all_sources()
    for rule in all_rules():
        assert not hasattr(rule, "source"), (
            f"{rule.code} sets `source`: name public sources by key instead, "
            "`sources = (...)` with the keys of trncodemod/data/sources.toml"
        )
        assert rule.sources, f"{rule.code} names no source for its facts"
        cited = cited_keys(rule.doc())
        unknown = [key for key in (*rule.sources, *cited) if key not in sources]
        assert not unknown, f"{rule.code} cites sources data/sources.toml lacks: {unknown}"
        broken = re.search(r"\[[a-z0-9]+-[a-z0-9-]+(?:, [a-z0-9-]+)*,\s*\n", rule.doc())
        assert broken is None, f"{rule.code}: a citation split over two lines: {broken.group(0)!r}"
        uncited = [key for key in cited if key not in rule.sources]
        assert not uncited, f"{rule.code} cites {uncited} in its text but not in `sources`"


def test_every_source_is_a_public_page_or_a_measurement_kept_here() -> None:
    for source in all_sources().values():
        # A key that a citation cannot spell would be cited by no rule text.
        assert CITATION.fullmatch(f"[{source.key}]"), f"{source.key}: use words-joined-by-hyphens"
        if source.url:
            assert source.url.startswith("https://"), source.key
            assert not (source.script or source.test), source.key
            continue
        kept = source.test or source.script
        assert kept and (ROOT / kept).is_file(), f"{source.key}: {kept} is not in the repository"
        if source.check:
            script = (ROOT / source.script).read_text("utf-8")
            assert f"def {source.check}(" in script, f"{source.key}: no check {source.check}"


def test_a_measured_fact_in_a_rule_names_what_measures_it() -> None:
    # "measured" alone is no source: the sentence cites a `measured-*` source (a script in
    # benchmarks/ and its check, or a test) within the same few lines.
    for rule in all_rules():
        doc = rule.doc()
        for match in re.finditer(r"\bmeasured\b", doc, re.IGNORECASE):
            near = doc[max(0, match.start() - 200) : match.end() + 200]
            assert re.search(r"\bmeasured-[a-z0-9-]+", near), (
                f"{rule.code}: 'measured' without the measurement it rests on: "
                f"{' '.join(doc[max(0, match.start() - 80) : match.end() + 40].split())}"
            )


_PRIVATE_CITATION = re.compile(
    r"\breference\s+(?:R\d+|D\d|§)|§\s*\d|codemod-anchors|shared/reference"
)


def test_no_rule_message_or_page_cites_a_document_the_repository_lacks() -> None:
    texts = {f"{rule.code} documentation": rule.doc() for rule in all_rules()}
    texts["docs/rules.md"] = RULES_PAGE.read_text("utf-8")
    for page in sorted((ROOT / "docs").glob("*.md")):
        texts[str(page.relative_to(ROOT))] = page.read_text("utf-8")
    for folder in ("transforms", "trncodemod"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".toml") and path.name != "sarif.py":
                texts[str(path.relative_to(ROOT))] = path.read_text("utf-8")
    for case in sorted((ROOT / "golden").rglob("*")):
        if case.is_file() and (case.name.endswith("findings") or case.suffix == ".py"):
            texts[str(case.relative_to(ROOT))] = case.read_text("utf-8")
    for name, text in texts.items():
        found = _PRIVATE_CITATION.search(text)
        assert found is None, (
            f"{name} cites a document the repository does not contain: "
            f"{text[max(0, found.start() - 60) : found.end() + 20]!r}"
        )


def test_explain_prints_the_rule_sources() -> None:
    sources = all_sources()
    for rule in all_rules()[:: max(1, len(all_rules()) // 12)]:
        output = CliRunner().invoke(main, ["explain", rule.code]).output
        for key in rule.sources:
            assert f"[{key}] {sources[key].title}" in output
            assert sources[key].where in output


def test_every_cuda_library_cites_a_source_of_its_rule() -> None:
    """Each library of data/cuda_libraries.toml names a public source that TRN051 cites."""
    from trncodemod.transforms.cuda_extensions import CudaOnlyLibraryImport

    from trncodemod.analysis.cuda_libraries import cuda_libraries

    for library in cuda_libraries().values():
        assert library.source in all_sources(), library.module
        assert library.source in CudaOnlyLibraryImport.sources, library.module
