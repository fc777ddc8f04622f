"""Qualified names from the file's name table (``FileFacts.names``) are the scope analysis's.

``Pass._qualified`` answers a name whose first part only an import binds, or only the global
scope, without LibCST's scope analysis; ``Pass.module_names`` also a name whose first part is a
local's or a builtin's. For every node of the golden inputs, the examples and the cases below,
those answers must be the ones ``ScopeProvider`` gives.
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.helpers import get_full_name_for_node
from libcst.metadata import MetadataWrapper, QualifiedNameSource, ScopeProvider

from trncodemod.analysis.facts import facts_of_text
from trncodemod.analysis.nodes import walk
from trncodemod.commands.golden import find_cases
from trncodemod.passes import _has_scope, known_names_at, module_names_of

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    {case.input for case in find_cases(ROOT / "golden")} | set(ROOT.glob("examples/*.py"))
)
# Each case: the source, and the names the table must settle (+) or must not (-).
CASES = {
    "plain": (
        "import torch\nimport torch.nn as nn\nfrom torch import optim as o\n"
        "def f(x):\n    return torch.zeros(1), nn.Linear, o.SGD, x\n",
        {"torch", "nn", "o", "f"},
        {"x"},
    ),
    "dotted import": (  # `import a.b` binds `a`, and a read `a.x` is "a.x" as for `import a`
        "import torch.distributed\nimport torch\ntorch.distributed.init()\n"
        "torch.utils.data.DataLoader; torch.Generator; torch; torch.distributed\n"
        "def f():\n    import torch.utils.checkpoint\n    return torch.utils.checkpoint.x, torch.y\n",
        {"torch"},
        set(),
    ),
    "dotted imports only": (
        "import torch.utils.checkpoint\nimport torch.nn\ntorch.Generator(); torch.nn.Linear\n"
        "torch.utils.data.X; torch\n",
        {"torch"},
        set(),
    ),
    "dotted import read before": (
        "torch.Generator\nimport torch.utils.checkpoint\ntorch.x\n",
        set(),
        {"torch"},
    ),
    "dotted import and another target": (
        "import torch.nn\nfrom x import torch\ntorch.y\ndef f():\n    import torch.optim\n"
        "    return torch.z\n",
        set(),
        {"torch"},
    ),
    "dotted import in a function only": (
        "def f():\n    import torch.nn\n    return torch.nn.Linear\ndef g():\n    return torch.x\n",
        {"f", "g"},
        {"torch"},
    ),
    "relative": (
        "from . import utils\nfrom ..a.b import c as d\nfrom .m import e\nutils.f(d.x, e)\n",
        {"utils", "d", "e"},
        set(),
    ),
    "two targets": (
        "try:\n    import torch_xla as tx\nexcept ImportError:\n"
        "    import torch as tx\ntx.device()\n",
        set(),
        {"tx"},
    ),
    "same twice": (
        "import torch\ndef f():\n    a = torch.ones(1)\n    import torch\n    return torch.ones(a)\n"
        "torch.zeros(1)\nclass C:\n    import torch\n    x = torch.y\n",
        {"torch"},
        set(),
    ),
    "rebound": (
        "import torch\ntry:\n    import apex\nexcept ImportError:\n    apex = None\n"
        "def g(torch):\n    return torch\n",
        set(),
        {"torch", "apex"},
    ),
    "read before import": ("x = np.zeros(1)\nimport numpy as np\ny = np.ones(1)\n", set(), {"np"}),
    "read in a function before import": (
        "def f():\n    return np.zeros(1)\nimport numpy as np\n",
        {"np", "f"},
        set(),
    ),
    "class body": (
        "import torch\nclass M(torch.nn.Module):\n    dtype = torch.float32\n"
        "    def f(self):\n        return [torch.x for _ in self.y]\n",
        {"torch"},
        set(),
    ),
    "local import": ("def f():\n    import torch\n    return torch.zeros(1)\n", set(), {"torch"}),
    "comprehension target": ("import torch\n[torch for torch in range(3)]\n", set(), {"torch"}),
    "global": ("import torch\ndef f():\n    global torch\n    torch = None\n", set(), {"torch"}),
    "del": ("import torch\ndel torch\n", set(), {"torch"}),
    "except as": ("import e\ntry:\n    pass\nexcept E as e:\n    pass\n", set(), {"e"}),
    "star": ("from torch import *\nimport torch\ntorch.zeros(nonzero)\n", {"torch"}, set()),
    "walrus and match": (
        "import a\nimport b\nif (a := 1):\n    pass\nmatch x:\n    case [b]:\n        pass\n",
        set(),
        {"a", "b"},
    ),
    "alias of a module": (
        "from torch.cuda import amp\nimport torch.cuda.amp as A\n"
        "amp.autocast(); A.GradScaler(); amp.x.y.z\n",
        {"amp", "A"},
        set(),
    ),
    "attribute and keyword names": ("import torch\nx.torch.y; f(torch=1)\n", {"torch"}, set()),
    "global only": (
        "def helper(): pass\ndef main():\n    helper()\nmodel = Net()\nclass Net: pass\n"
        "main(); model.to(1).x\n",
        {"helper", "main", "model"},
        {"Net"},
    ),
    "bound in a function too": (
        "x = 1\ndef f(a=x):\n    x = 2\n    return x\nx.y\ndef g():\n    return x.z, [x for x in x]\n"
        "lambda x: x\nclass C:\n    x = x\n    def m(self):\n        return x\n",
        {"f", "x"},
        set(),
    ),
    "class attribute": ("y = 1\nclass C:\n    y = 2\n    z = y\nC.y\n", {"C", "y"}, set()),
    "comprehension targets": (
        "[k for k in range(3)]\nk = 1\n[(w := i) for i in k]\nw\n",
        set(),
        {"k", "w", "i"},
    ),
    "default read before its def": ("def f(a=g()):\n    pass\ndef g(): pass\n", {"f"}, {"g"}),
    "builtins and locals": (
        "def f(print, x):\n    return print(len(x)), str.join, x.y\n"
        "class C:\n    open = 1\n    def g(self):\n        return open(id)\n"
        "print(type(C)); y = [z for z in range(3)]\n",
        set(),
        {"print", "x"},
    ),
    "builtin declared global elsewhere": (
        "def f():\n    global input\n    input = 1\ndef g():\n    return input, len(input)\n",
        set(),
        {"input"},
    ),
    "builtin read before its local binding": (
        "def f():\n    print(len)\n    len = 3\ndef g(open):\n    return [open for open in open]\n"
        "open(__file__); __name__.x; undefined.y\n",
        {"f", "g"},
        {"len", "open"},
    ),
    "parameter declared global in a nested function": (
        "x = 1\ndef f(x, print):\n    def g():\n        global x\n        return x, print\n"
        "    return lambda len: (len, x)\n",
        set(),
        {"x", "print"},
    ),
    "locals read after, before and while they are bound": (
        "model = 1\ndef f():\n    model = make()\n    model.to(x)\n    def g():\n        return model.y\n"
        "    return model\ndef h():\n    use(model)\n    model = 2\n    for batch in batch:\n"
        "        model = batch\nbatch = [model for model in model]\n",
        {"model"},
        set(),
    ),
    "imported in functions only": (
        "def f():\n    import numpy as np\n    return np.zeros(1), lambda: np.pi\ndef g():\n"
        "    return np.ones(1)\ndef h():\n    x = np.x\n    import numpy as np\n    return x\n"
        "def k():\n    from .utils import helper\n    def inner():\n        return helper.run()\n"
        "    return inner\nnp.top\n",
        {"f", "g", "h", "k"},
        {"np", "helper"},
    ),
    "local of a class, read in a method": (
        "class C:\n    id = 1\n    def m(self):\n        return id(self), [id for id in ()]\n",
        {"C"},
        {"id"},
    ),
}


def check(text: str) -> tuple[int, int, list[str]]:
    """(nodes with a name, nodes the file's names answer for, the code of every node where an
    answer is not the scopes': a qualified name, or whether the node has a scope at all)."""
    facts = facts_of_text(text)
    assert facts is not None
    module = cst.parse_module(text)
    scopes = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    named = answered = 0
    wrong: list[str] = []
    for node in walk(module):
        full = get_full_name_for_node(node)
        if full is None:
            continue
        named += 1
        scope = scopes.get(node)
        if _has_scope(module, node) != (scope is not None):
            wrong.append(f"{cst.Module([]).code_for_node(node)} (scope: {scope is not None})")
            continue
        if scope is None:
            continue
        slow = set(scope.get_qualified_names_for(node))
        module_only = {
            q.name for q in slow if q.source is not QualifiedNameSource.LOCAL or q.name == full
        }
        fast = known_names_at(module, node, full, facts.names)
        fast_module = module_names_of(full, facts, module, node)
        if fast is not None and fast != slow or fast_module not in (None, module_only):
            wrong.append(cst.Module([]).code_for_node(node))
        answered += fast_module is not None
    return named, answered, wrong


def test_every_kind_of_node() -> None:
    from test_nodes import EVERY_KIND

    assert check(EVERY_KIND)[2] == []


@pytest.mark.parametrize("name", sorted(CASES))
def test_cases(name: str) -> None:
    text, present, absent = CASES[name]
    table = facts_of_text(text).names  # type: ignore[union-attr]
    settled = table.imports.keys() | table.global_only | table.shadowed
    assert present <= settled
    assert not absent & settled
    assert check(text)[2] == []


@pytest.mark.parametrize("source", SOURCES, ids=[p.relative_to(ROOT).as_posix() for p in SOURCES])
def test_golden_inputs_and_examples(source: Path) -> None:
    text = source.read_text("utf-8")
    if facts_of_text(text) is None:
        pytest.skip("Python cannot parse it; LibCST reports it")
    assert check(text)[2] == []
