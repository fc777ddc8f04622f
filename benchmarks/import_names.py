"""Holds the qualified names the file's names settle to the scope analysis's, on real code.

    python benchmarks/import_names.py PATH [PATH ...]

For every node of every ``.py`` file under each PATH that has a name, the answers the first
stage's names give without a scope analysis (``trncodemod.passes.known_names_at`` and
``module_names_of``) must equal LibCST's; a difference is printed with the file and the code, and
the exit status is 1. It also prints how many of the named nodes those answers cover. So must
the values ``plain_values`` reads for a name without a scope analysis (``Pass.bound_values``),
and the bindings ``bindings_of`` reads from the ``ast`` (the names a new import must not take).
The checks are ``tests/test_import_names.py``'s, ``tests/test_bound_values.py``'s and
``tests/test_introduced_names.py``'s, which run them on the golden inputs and examples.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import ast  # noqa: E402

import libcst as cst  # noqa: E402
from libcst.metadata import MetadataWrapper  # noqa: E402
from test_bound_values import wrong_answers  # noqa: E402
from test_import_names import check  # noqa: E402
from test_introduced_names import _sorted  # noqa: E402

from trncodemod.analysis.facts import facts_of_text  # noqa: E402
from trncodemod.rewriting.imports import bindings_of, module_bindings  # noqa: E402


def main(paths: list[str]) -> int:
    files = sorted(
        f for p in map(Path, paths) for f in ([p] if p.suffix == ".py" else p.rglob("*.py"))
    )
    named = answered = wrong = 0
    for path in files:
        text = path.read_text("utf-8", errors="replace")
        if facts_of_text(text) is None:
            continue
        try:
            counts = check(text)
            values = wrong_answers(text)
            wrapper = MetadataWrapper(cst.parse_module(text))
            same = _sorted(bindings_of(ast.parse(text))) == _sorted(module_bindings(wrapper))
        except Exception as err:  # noqa: BLE001 - LibCST refuses some files Python parses
            print(f"{path}: skipped ({type(err).__name__})")
            continue
        named += counts[0]
        answered += counts[1]
        wrong += len(counts[2])
        for code in counts[2]:
            print(f"{path}: `{code}`: not the scope analysis's qualified names")
        wrong += len(values) + (not same)
        if not same:
            print(f"{path}: the bindings read from the ast are not the scope analysis's")
        for difference in values:
            print(f"{path}: {difference}: not the values of the scope analysis's assignments")
    print(
        f"{len(files)} files, {named} nodes with a name, {answered} answered without scopes "
        f"({answered / max(named, 1):.0%}), {wrong} answers different from the scope analysis"
    )
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
