"""A keyword the tool adds to a call (`drop_last=True`, `backend=...`) follows the call's layout."""

import libcst as cst
import pytest

from trncodemod.rewriting.calls import append_keyword

LAYOUTS = [
    ("f(a, b=1)", "f(a, b=1, drop_last=True)"),
    ("f(a,\n  b=1)", "f(a,\n  b=1,\n  drop_last=True)"),
    ("f(\n    a,\n    b=1,\n)", "f(\n    a,\n    b=1,\n    drop_last=True,\n)"),
    # `)` on its own line, no trailing comma (accelerate's DataLoader calls are written so).
    ("f(\n    a, b=1, c=2\n)", "f(\n    a, b=1, c=2, drop_last=True\n)"),
    ("f(\n    a,\n    b=1\n)", "f(\n    a,\n    b=1,\n    drop_last=True\n)"),
]


@pytest.mark.parametrize(("before", "after"), LAYOUTS)
def test_an_added_keyword_follows_the_layout_of_the_call(before: str, after: str) -> None:
    call = cst.parse_expression(before)
    assert isinstance(call, cst.Call)
    added = append_keyword(call, "drop_last", cst.Name("True"))
    assert cst.Module([]).code_for_node(added) == after
