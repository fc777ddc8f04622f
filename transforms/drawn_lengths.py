"""Sequence lengths that change every step without any loader: a length drawn on the host
(TRN443: awd-lstm-lm's `seq_len = max(5, int(np.random.normal(bptt, 5)))`), and one sequence
a step taken from a list of sequences of different lengths (TRN444: TCN's poly_music
`data_line = X_train[idx]`). Reported by the ``recompilation`` pass; nothing is rewritten (the
random length is the author's regularisation, and padding changes what the loss sees).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider, PositionProvider

from trncodemod.analysis.drawn_offsets import HOST_NUMBER_DRAWS, TO_HOST, TORCH_DRAWS
from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.loops import LoopInfo, dotted
from trncodemod.analysis.nodes import children, find
from trncodemod.analysis.shape_params import derived_names, shape_parameters, shape_use
from trncodemod.analysis.step_scan import step_scan
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass

# Host draws of a number, and device draws read on the host (`torch.randint(...).item()`).
LENGTH_DRAWS, _TORCH_DRAWS, _TO_HOST = HOST_NUMBER_DRAWS, TORCH_DRAWS, TO_HOST
_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
# Tensors of token ids made from a list item: the item is a sequence of tokens.
_ID_TENSORS = frozenset({"torch.LongTensor", "torch.IntTensor", "torch.cuda.LongTensor"})
_ID_DTYPES = frozenset({"torch.long", "torch.int64", "torch.int", "torch.int32"})
# What makes an array of equal rows: indexing one gives samples of one shape.
_EQUAL_ROWS = ("torch.", "numpy.")


class HostDrawnLength(Rule):
    """## What it does
    Reports a number drawn on the host inside a training or evaluation step (`random.*`,
    `np.random.*`, `torch.randint(...).item()`) that decides the length of a slice or a size
    argument there: directly (`x[:, :random.randint(20, 40)]`), through names bound in the step
    (awd-lstm-lm: `bptt = args.bptt if np.random.random() < 0.95 else args.bptt / 2.`;
    `seq_len = max(5, int(np.random.normal(bptt, 5)))`), or through a parameter of the
    repository's own helper that slices to it (`get_batch(train_data, i, args,
    seq_len=seq_len)`, in the module or imported from another given module). Not reported: a
    draw that only moves an offset (`x[s:s + n]`: the length stays `n`), and a draw made once
    before the loop.

    ## Why
    Every new length is a new input shape, and every new shape traces and compiles another
    graph ([xla-recompile-sources]). Measured on torch 2.9 + torch-xla 2.9, XLA:CPU
    ([measured-drawn-lengths]: awd-lstm-lm's draw around a bptt of 20): 13 compiles in 20
    steps, 2 at a fixed length, 4 with the draw rounded up to a multiple of 8. Around a bptt
    of 70 that is some 40-60 lengths, each compiled by neuronx-cc in minutes.

    ## Example
    ```python
    bptt = args.bptt if np.random.random() < 0.95 else args.bptt / 2.
    seq_len = max(5, int(np.random.normal(bptt, 5)))
    data, targets = get_batch(train_data, i, args, seq_len=seq_len)
    ```

    ## Use instead
    ```python
    bptt = args.bptt if np.random.random() < 0.95 else args.bptt / 2.
    seq_len = max(5, int(np.random.normal(bptt, 5)))
    seq_len = min(-(-seq_len // 8) * 8, args.bptt + 16)   # one of a few fixed lengths
    data, targets = get_batch(train_data, i, args, seq_len=seq_len)
    ```
    Or keep the drawn length and pad every batch to the largest one, masking the padding out
    of the loss. Both change the regularisation the random length gives, a little: a person
    decides, so nothing is rewritten.
    """

    code = "TRN443"
    name = "host-drawn-length"
    summary = (
        "a length drawn on the host every step slices the batch: a graph per length (report only)"
    )
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-recompile-sources", "measured-drawn-lengths")


class VariableLengthSamples(Rule):
    """## What it does
    Reports a training or evaluation loop that takes one sequence a step from a list,
    `data_line = X_train[idx]` at the loop's index (or `for seq in sequences:` over a list built
    in the code), and makes a batch of one from it, where the
    items are sequences (the step shifts it both ways, `data_line[:-1]` and `data_line[1:]`,
    or makes a tensor of token ids of it, `torch.LongTensor(data_source[i])`) and the list
    cannot be shown to hold items of one length (it is no tensor or array made in the module).
    Not reported: an item padded in the step (a call named `*pad*`), a record split once
    (`row[1:]`), and an item of a dataset indexed one by one (an image and its label) that the
    step does not treat as a sequence.

    ## Why
    Each sequence's length is the batch's shape, and every new length traces and compiles
    another graph ([xla-recompile-sources]). Measured on torch 2.9 + torch-xla 2.9, XLA:CPU
    ([measured-drawn-lengths]: 20 sequences of 10 to 60 steps, one a step): 16 compiles for 16
    distinct lengths; padded up to the next multiple of 16 with the padding masked out of the
    loss, 5, and the same loss. Music and text corpora have hundreds of distinct lengths.

    ## Example
    ```python
    for idx in train_idx_list:
        data_line = X_train[idx]
        x, y = data_line[:-1], data_line[1:]
        output = model(x.unsqueeze(0).to(device)).squeeze(0)
    ```

    ## Use instead
    ```python
    for idx in train_idx_list:
        data_line = X_train[idx]
        n = data_line.shape[0] - 1
        width = -(-n // 16) * 16                            # one of a few bucket lengths
        x = F.pad(data_line[:-1], (0, 0, 0, width - n))
        y = F.pad(data_line[1:], (0, 0, 0, width - n))
        mask = (torch.arange(width) < n).float()            # the loss ignores the padding
    ```
    Or sort the sequences into buckets and batch the ones of one bucket together.
    """

    code = "TRN444"
    name = "variable-length-samples"
    summary = (
        "one sequence a step from a list of different lengths: a graph per length (report only)"
    )
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("xla-recompile-sources", "measured-drawn-lengths")


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _step_code(loop: cst.CSTNode, loops: dict) -> list[cst.CSTNode]:
    """The step's code and the loops nested in it; not functions defined there, and not a
    nested step loop."""
    found: list[cst.CSTNode] = []
    stack: list[cst.CSTNode] = [loop.body]  # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(
            c for c in reversed(children(node)) if not isinstance(c, _SCOPES) and c not in loops
        )
    return found


def may_report(facts: FileFacts) -> bool:
    """Whether TRN443 or TRN444 may fire in the file (``RecompilationDiagnostics.candidate``):
    a host draw it reaches, or a step loop that indexes something at its own index."""
    if facts.reaches(*LENGTH_DRAWS) or (
        not facts.calls.isdisjoint(_TO_HOST) and facts.reaches(*_TORCH_DRAWS)
    ):
        return True
    if not facts.subscripts:
        return False
    for loop in step_scan(facts).step_loops:
        node = loop.node
        if type(node) is not ast.For:
            continue
        target = node.target  # type: ignore[attr-defined]
        if type(target) is ast.Tuple and target.elts:
            target = target.elts[-1]
        if type(target) is not ast.Name:
            continue
        for found in loop.region:
            if (
                type(found) is ast.Subscript
                and type(found.slice) is ast.Name  # type: ignore[attr-defined]
                and found.slice.id == target.id  # type: ignore[attr-defined]
            ):
                return True
    return False


def report_lengths(owner: Pass, module: cst.Module, loops: dict) -> None:
    """TRN443 and TRN444 on ``module`` for the ``recompilation`` pass ``owner``."""
    functions = {f.name.value: f for f in module.body if isinstance(f, cst.FunctionDef)}
    # TRN443 asks the scope analysis about every call of each step: not where the file's names
    # reach no draw (what ``may_report`` asks of it first).
    facts = owner.run.facts
    draws = (
        facts is None
        or facts.reaches(*LENGTH_DRAWS)
        or (not facts.calls.isdisjoint(_TO_HOST) and facts.reaches(*_TORCH_DRAWS))
    )
    for info in loops.values():
        nodes = _step_code(info.node, loops)
        if draws:
            _drawn_length(owner, info, nodes, functions)
        _variable_samples(owner, info, nodes)


# -- TRN443 ---------------------------------------------------------------------------------------


def _is_draw(owner: Pass, call: cst.Call) -> bool:
    names = owner.qualified_names(call.func)  # type: ignore[attr-defined]
    if names & LENGTH_DRAWS:
        # `random.choice((64, 128, 256))`: a few fixed lengths, the fix itself.
        choices = call.args[0].value if call.args else None
        return not (
            isinstance(choices, cst.List | cst.Tuple | cst.Set)
            and all(isinstance(e.value, cst.Integer) for e in choices.elements)
        )
    if m.matches(call.func, m.Attribute(attr=m.OneOf(*map(m.Name, _TO_HOST)))):
        return any(
            owner.qualified_names(c.func) & _TORCH_DRAWS  # type: ignore[attr-defined]
            for c in find(call.func, cst.Call)
        )
    return False


def _drawn_length(
    owner: Pass, info: LoopInfo, nodes: list[cst.CSTNode], functions: dict[str, cst.FunctionDef]
) -> None:
    # The names the step binds to a draw, each with its draw; a draw right in a slice bound.
    seeds: dict[str, tuple[cst.Call, cst.Assign]] = {}
    direct: list[tuple[cst.Call, cst.Subscript]] = []
    for call in nodes:
        if not isinstance(call, cst.Call) or not _is_draw(owner, call):
            continue
        node: cst.CSTNode | None = call
        while node is not None and not isinstance(node, cst.BaseSmallStatement | cst.Slice):
            node = owner.get_metadata(ParentNodeProvider, node, None)
        if isinstance(node, cst.Assign):
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    seeds.setdefault(target.target.value, (call, node))
        elif isinstance(node, cst.Slice):
            subscript = owner.get_metadata(ParentNodeProvider, node, None)
            subscript = owner.get_metadata(ParentNodeProvider, subscript, None)
            if isinstance(subscript, cst.Subscript) and node.upper is not None:
                if any(c is call for c in find(node.upper, cst.Call)) != any(
                    c is call for c in find(node.lower, cst.Call) if node.lower is not None
                ):
                    direct.append((call, subscript))
    for call, subscript in direct[:1]:
        owner.report(
            call,
            HostDrawnLength,
            f"`{_code(call)}` is drawn on the host every step and is the length of "
            f"`{_code(subscript)}`: {_cost(owner)}; {_FIX}",
            False,
        )
    if not seeds or direct:
        return
    try:
        body = ast.parse(_code(info.node.with_changes(leading_lines=()))).body
    except SyntaxError:
        return
    first = _start(owner, info.node)[0] - 1  # the loop's line in the module, less one
    reaching = []
    for name, (_, assignment) in seeds.items():
        line = _start(owner, assignment)[0] - first
        where = _shape_of(owner, body, derived_names(body, set(), frozenset({line})), functions)
        if where is not None:
            reaching.append((name, where))
    if not reaching:
        return
    # Anchored at the last draw that reaches the shape (the length itself, `seq_len = ...`).
    name, where = max(reaching, key=lambda r: _start(owner, seeds[r[0]][0]))
    reaching.sort(key=lambda r: _start(owner, seeds[r[0]][0]))
    drawn = " and ".join(f"`{n}`" for n, _ in reaching)
    verb = "are" if len(reaching) > 1 else "is"
    owner.report(
        seeds[name][0],
        HostDrawnLength,
        f"{drawn} {verb} drawn on the host every step (`{_code(seeds[name][0])}`) and decide"
        f"{'' if len(reaching) > 1 else 's'} {where}: {_cost(owner)}; {_FIX}",
        False,
    )


def _start(owner: Pass, node: cst.CSTNode) -> tuple[int, int]:
    start = owner.get_metadata(PositionProvider, node).start
    return start.line, start.column


_FIX = (
    "draw from a few fixed lengths (round the draw up to a bucket: `-(-n // 8) * 8`), or pad "
    "to the largest length and mask the padding out of the loss; the random length is the "
    "author's regularisation, so nothing is rewritten"
)


def _cost(owner: Pass) -> str:
    if owner.target.is_xla:
        return (
            "each new length compiles another graph (measured: 13 compiles in 20 steps of such "
            "a draw, 2 at a fixed length, 4 rounded up to a multiple of 8)"
        )
    return "TorchNeuron compiles its ops again for each new length"


def _shape_of(
    owner: Pass, body: list[ast.stmt], names: set[str], functions: dict[str, cst.FunctionDef]
) -> str | None:
    """Where ``names`` decide a shape in the step's ``body``: a slice or sized call there, or a
    parameter of a helper it calls (of this module, or imported from another given module)."""
    use = shape_use(body, names)
    if use is not None:
        what = "the length of" if isinstance(use, ast.Subscript) else "a size in"
        return f"{what} `{ast.unparse(use)}`"
    imported = owner.run.program.imported_shape_params
    for call in (n for s in body for n in ast.walk(s) if isinstance(n, ast.Call)):
        if not isinstance(call.func, ast.Name):
            continue
        helper = call.func.id
        decided: Iterable[tuple[int, str, str]] = ()
        if helper in functions:
            try:
                function = functions[helper].with_changes(leading_lines=())
                tree = ast.parse(_code(function)).body[0]
            except SyntaxError:
                continue
            line = owner.get_metadata(PositionProvider, functions[helper]).start.line
            positions = [a.arg for a in (*tree.args.posonlyargs, *tree.args.args)]  # type: ignore[attr-defined]
            decided = [
                (positions.index(p) if p in positions else -1, p, f"line {line + found - 1}")
                for p, found in shape_parameters(tree).items()  # type: ignore[arg-type]
            ]
        elif helper in imported:
            decided = imported[helper]
        matches = []
        for position, parameter, place in decided:
            argument = next((k.value for k in call.keywords if k.arg == parameter), None)
            keyword = argument is not None
            if argument is None and 0 <= position < len(call.args):
                argument = call.args[position]
            if argument is None or isinstance(argument, ast.Starred):
                continue
            if {n.id for n in ast.walk(argument) if isinstance(n, ast.Name)} & names:
                # `seq_len=seq_len` before `i` (an offset advanced by the drawn length).
                matches.append((not keyword, position, parameter, place))
        if matches:
            *_, parameter, place = min(matches)
            return f"the shape `{helper}` makes with its `{parameter}` ({place})"
    return None


# -- TRN444 ---------------------------------------------------------------------------------------


def _loop_index(info: LoopInfo) -> str | None:
    """The name a ``for`` binds to each element: ``idx`` of ``for idx in order`` and of ``for
    k, idx in enumerate(order)``."""
    loop = info.node
    if not isinstance(loop, cst.For):
        return None
    target = loop.target
    if m.matches(loop.iter, m.Call(func=m.Name("enumerate"))):
        if not isinstance(target, cst.Tuple) or len(target.elements) != 2:
            return None
        target = target.elements[1].value
    return target.value if isinstance(target, cst.Name) else None


def _variable_samples(owner: Pass, info: LoopInfo, nodes: list[cst.CSTNode]) -> None:
    index = _loop_index(info)
    if index is None:
        return
    # (the item, the list, the names the step binds to the item)
    items: list[tuple[cst.CSTNode, cst.BaseExpression, set[str]]] = [
        (n, n.value, _names_bound_to(nodes, n))
        for n in nodes
        if isinstance(n, cst.Subscript)
        and len(n.slice) == 1
        and m.matches(n.slice[0].slice, m.Index(value=m.Name(index)))
        and isinstance(n.value, cst.Name | cst.Attribute)
    ]
    loop = info.node
    if (
        isinstance(loop, cst.For)
        and isinstance(loop.iter, cst.Name)
        and _built_list(owner, loop.iter)
    ):
        items.append((loop.target, loop.iter, {index}))  # `for seq in sequences:`
    seen: set[str] = set()
    for item, listed, named in items:
        source = _code(listed)
        if source in seen or _equal_rows(owner, listed):
            continue
        if _padded(nodes, item, named):
            continue
        how = _sequence_use(owner, nodes, item, named)
        if how is None:
            continue
        seen.add(source)
        loop = "training" if info.kind == "train" else "evaluation"
        owner.report(
            item,
            VariableLengthSamples,
            f"`{_code(item)}` is one sequence a step ({how}) from `{source}`, whose items "
            f"cannot be shown to have one length: in this {loop} loop every new length is a "
            f"new shape, and {_sample_cost(owner)}; pad each sequence up to one of a few "
            "bucket lengths and mask the padding out of the loss (or batch the sequences of "
            "one bucket together)",
            False,
        )


def _built_list(owner: Pass, name: cst.Name) -> bool:
    """``name`` is only bound to lists built in the code (`[torch.LongTensor(ids) for ids in
    lines]`): no loader, whose items are batches."""
    values = owner.bound_values(name)  # type: ignore[attr-defined]
    return bool(values) and all(isinstance(v, cst.List | cst.ListComp) for v in values)


def _sample_cost(owner: Pass) -> str:
    if owner.target.is_xla:
        return (
            "each compiles another graph (measured: 16 compiles for 16 distinct lengths in "
            "20 steps; 5 padded up to a multiple of 16)"
        )
    return "TorchNeuron compiles its ops again for each"


def _equal_rows(owner: Pass, source: cst.BaseExpression) -> bool:
    """The list is a tensor or array made in the module (`torch.randn(n, t, d)`,
    `np.stack(...)`): its rows have one shape."""
    if not isinstance(source, cst.Name):
        return False
    values = owner.bound_values(source)  # type: ignore[attr-defined]
    if not values:
        return False
    for value in values:
        call = value
        while isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute):
            if owner.qualified_names(call.func):  # type: ignore[attr-defined]
                break
            call = call.func.value  # `torch.randn(...).float()`
        if not isinstance(call, cst.Call):
            return False
        names = owner.qualified_names(call.func)  # type: ignore[attr-defined]
        if not any(n.startswith(_EQUAL_ROWS) for n in names):
            return False
    return True


def _names_bound_to(nodes: list[cst.CSTNode], item: cst.Subscript) -> set[str]:
    """The names the step binds to the item itself (`data_line = X_train[idx]`)."""
    return {
        target.target.value
        for node in nodes
        if isinstance(node, cst.Assign) and node.value is item
        for target in node.targets
        if isinstance(target.target, cst.Name)
    }


def _is_sample(node: cst.CSTNode, item: cst.Subscript, named: set[str]) -> bool:
    return node is item or (isinstance(node, cst.Name) and node.value in named)


def _padded(nodes: list[cst.CSTNode], item: cst.Subscript, named: set[str]) -> bool:
    for call in nodes:
        if isinstance(call, cst.Call) and "pad" in (dotted(call.func) or "").lower():
            if any(
                _is_sample(n, item, named)
                for a in call.args
                for n in [a.value, *find(a.value, cst.Name)]
            ):  # type: ignore[attr-defined]
                return True
    return False


def _sequence_use(
    owner: Pass, nodes: list[cst.CSTNode], item: cst.Subscript, named: set[str]
) -> str | None:
    """How the step treats the item as a sequence: shifted along its first axis both ways
    (`line[:-1]` and `line[1:]`: inputs and next-step targets; one of them alone may split a
    record, `row[1:]`), or made a tensor of token ids (`torch.LongTensor(x[i])`,
    `torch.tensor(x[i], dtype=torch.long)`)."""
    shifts: dict[str, cst.Subscript] = {}
    for node in nodes:
        if isinstance(node, cst.Subscript) and _is_sample(node.value, item, named):
            part = node.slice[0].slice if len(node.slice) == 1 else None
            side = _constant_shift(part) if isinstance(part, cst.Slice) else None
            if side is not None:
                shifts.setdefault(side, node)
                if len(shifts) == 2:
                    head, tail = shifts["head"], shifts["tail"]
                    return f"shifted by one: `{_code(head)}` and `{_code(tail)}`"
        if isinstance(node, cst.Call) and node.args and _is_sample(node.args[0].value, item, named):
            names = owner.qualified_names(node.func)  # type: ignore[attr-defined]
            dtype = next(
                (a.value for a in node.args if a.keyword and a.keyword.value == "dtype"), None
            )
            if names & _ID_TENSORS or (
                names & {"torch.tensor", "torch.as_tensor"}
                and dtype is not None
                and owner.qualified_names(dtype) & _ID_DTYPES  # type: ignore[attr-defined]
            ):
                return f"made a tensor of token ids: `{_code(node)}`"
    return None


def _constant_shift(part: cst.Slice) -> str | None:
    """ "head" for `[:-k]`, "tail" for `[k:]`, with an integer `k`."""
    if part.step is not None or (part.lower is None) == (part.upper is None):
        return None
    bound = part.lower if part.lower is not None else part.upper
    negative = isinstance(bound, cst.UnaryOperation) and isinstance(bound.operator, cst.Minus)
    if negative:
        bound = bound.expression  # type: ignore[union-attr]
    if not isinstance(bound, cst.Integer) or bound.value == "0":
        return None
    if part.upper is not None:
        return "head" if negative else None
    return None if negative else "tail"
