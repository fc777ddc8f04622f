"""An example Bowler plugin for trncodemod: rename `test(...)` to `evaluate(...)`.

A module-level function named `test` is collected by pytest as a test; the MNIST-style
scripts that port to Trainium often have one. Bowler renames the definition and every call:

    trncodemod apply --dry-run --plugin examples/plugins/rename_eval_function.py:query examples/
"""

from bowler import Query


def query(path: str) -> Query:
    return Query(path).select_function("test").rename("evaluate")
