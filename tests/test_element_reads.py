"""Which parameters a function reads element by element on the host, in a loop
(``analysis/element_reads.py``, TRN447's facts)."""

from __future__ import annotations

import ast

import pytest

from trncodemod.analysis.element_reads import element_reads


def _reads(source: str, method: bool = False) -> list[tuple[str, str]]:
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    params = tuple(a.arg for a in function.args.args)
    return [(name, read) for _, name, _, _, read in element_reads(function, params, method)]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (  # deep-text-recognition-benchmark's CTC decode: a row bound to a name, then `t[i]`
            "def decode(self, text_index, length):\n"
            "    for index, l in enumerate(length):\n"
            "        t = text_index[index, :]\n"
            "        for i in range(l):\n"
            "            if t[i] != 0 and not (i > 0 and t[i - 1] == t[i]):\n"
            "                chars.append(self.character[t[i]])\n",
            [("text_index", "t[i] != 0"), ("length", "range(l)")],
        ),
        (  # its attention decode: the loop's element as a Python index
            "def decode(self, text_index, length):\n"
            "    return [''.join([self.character[i] for i in text_index[k, :]])"
            " for k, l in enumerate(length)]\n",
            [("text_index", "self.character[i]")],
        ),
        ("def f(self, t):\n    return [int(x) for x in t.data]\n", [("t", "int(x)")]),
        ("def f(self, t):\n    while t[0].item():\n        pass\n", [("t", "t[0].item()")]),
    ],
)
def test_an_element_read_in_a_loop_is_found(source: str, expected: list) -> None:
    assert _reads(source, method=True) == expected


@pytest.mark.parametrize(
    "source",
    [
        # copied to the host once before the loop
        "def f(t, n):\n    t = t.cpu()\n    return [chars[t[i]] for i in range(n)]\n",
        "def f(t):\n    rows = t.tolist()\n    return [chars[r[0]] for r in rows if r[0]]\n",
        # elements used only in tensor ops, or iterated without reading them
        "def f(t, n):\n    for i in range(n):\n        y = t[i] * 2\n    return y\n",
        "def f(t):\n    return [row.sum() for row in t]\n",
        # one read, not in a loop
        "def f(t):\n    if t[0] != 0:\n        return 1\n",
        # another parameter subscripted by an element: it may be a tensor too
        "def f(t, vocab):\n    return [vocab[x] for x in t]\n",
    ],
)
def test_no_element_read_where_nothing_is_read_per_element(source: str) -> None:
    assert _reads(source) == []
