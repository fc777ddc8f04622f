"""An optimizer built before its model is moved to the XLA device (TRN053).

`module.to(device)` replaces each parameter's data in place where the tensor types allow it (CUDA
from the CPU), but on the XLA device it makes new `Parameter` objects: the CPU and XLA tensor
types are not compatible for a shallow copy (torch/nn/modules/module.py `_apply`). An optimizer
built over `model.parameters()` before the move then holds the old CPU parameters, which get no
gradient: it steps nothing, and the model never trains (measured). Where the move follows the
optimizer in the same block, with nothing between them touching the model or the optimizer,
the move is put first; elsewhere the verdict names the optimizer as the cause.
"""

from __future__ import annotations

import re

import libcst as cst
import libcst.matchers as m
from libcst.metadata import PositionProvider

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.nodes import walk
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Target

# How far a line the program's run names may be from where the pass sees it (lines earlier passes
# added above it).
_SLACK = 3


class OptimizerBeforeMove(Rule):
    """## What it does
    Where an optimizer is built over a model's parameters (`optimizer =
    torch.optim.Adam(model.parameters(), ...)`) and the model is moved to the device by a later
    statement of the same block (`model.to(device)`, `model = model.to(device)`, `.cuda()` in
    its ported form), with nothing between them reading the model or the optimizer, the move is
    put before the optimizer (a call that only prints or counts the model does not count:
    `print(model)`, or a function or method of the module's own that calls only `print`,
    `.parameters()`, `.numel()`, `str.format` and the like and assigns no attribute or item);
    so is an `if` that holds such a move (`if args.cuda: model.cuda();
    features = features.cuda()`), where nothing in it reads the optimizer. Two optimizers built
    before one such move (a GAN's generator and discriminator) are both put after it; two moves
    (`G.to(...)`, `D.to(...)`) each above its own optimizer stay together.

    Where the move reads a name bound between (`device = torch.device(...)` in the notebook
    cells between), so that it cannot go first, the optimizer goes below it instead, on the
    conditions below.

    Where the program's run shows the optimizer stepped after a later statement of the same
    block moved the model (to CUDA as written, or to the device a CUDA availability check chose,
    which the port makes the target's), also through a module built around it and moved at once (`trainer
    = DiffusionTrainer(net, T).to(device)`), the optimizer goes below that move, with the
    statements between built on it (`sched = LambdaLR(optim, ...)`): where nothing else between
    reads them, they read nothing bound between, and every other statement between that names
    the model is such a move (a layer added to the model there would change what the optimizer
    steps).

    On XLA targets only.

    ## Why
    On the XLA device `module.to()` gives the module new parameters: the CPU and XLA tensor types
    are not compatible for a shallow copy, so `nn.Module._apply` makes new `Parameter` objects
    instead of replacing their data (PyTorch v2.9.0 `torch/nn/modules/module.py`). An optimizer
    built before the move keeps the CPU parameters: they get no gradient, the optimizer steps
    nothing and the model does not train ([measured-optimizer-before-move]: the weights after a
    step equal those before). On CUDA `.cuda()` keeps the parameters, which is why the order
    worked there. The entry point's verdict names such an optimizer where the tool does not move
    the statement.

    ## Example
    ```python
    self.optimizer = optim.Adam(list(self.unet.parameters()), self.lr)
    self.unet.to(self.device)
    ```

    ## Use instead
    ```python
    self.unet.to(self.device)
    self.optimizer = optim.Adam(list(self.unet.parameters()), self.lr)
    ```
    """

    code = "TRN053"
    name = "optimizer-before-move"
    summary = "model moved to the device after its optimizer was built → moved first"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("measured-optimizer-before-move",)


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


# What a function that only prints or counts a model calls (`print_network(model, name)`).
_PURE_FUNCTIONS = frozenset(
    {"print", "str", "repr", "format", "len", "sum", "int", "float", "round", "max", "min"}
    | {"isinstance", "type", "enumerate", "zip", "sorted"}
)
_PURE_METHODS = frozenset(
    {"parameters", "named_parameters", "numel", "nelement", "size", "dim", "format", "join"}
    | {"items", "keys", "values", "item"}
)


def _pure_calls(calls) -> bool:  # type: ignore[no-untyped-def]
    """Every one of ``calls`` only reads: a builtin that prints, counts or formats, or a method
    that lists or counts parameters or formats text."""
    for call in calls:
        func = call.func
        if isinstance(func, cst.Name) and func.value in _PURE_FUNCTIONS:
            continue
        if isinstance(func, cst.Attribute) and func.attr.value in _PURE_METHODS:
            continue
        return False
    return True


def _reads_only_body(function: cst.FunctionDef) -> bool:
    """``function`` calls only what ``_pure_calls`` allows, assigns no attribute or item and
    returns nothing it was given (a count, a string or nothing)."""
    for node in walk(function.body):
        if isinstance(node, cst.FunctionDef | cst.ClassDef | cst.Lambda | cst.Global):
            return False
        if isinstance(node, cst.AssignTarget | cst.AugAssign | cst.AnnAssign) and not isinstance(
            node.target, cst.Name
        ):
            return False
        if isinstance(node, cst.Del | cst.Yield | cst.Await):
            return False
    return _pure_calls(n for n in walk(function.body) if isinstance(n, cst.Call))


def _bound(statements: list[cst.CSTNode]) -> set[str]:
    """The names and attributes the statements bind, as written (`device`, `self.device`)."""
    found: set[str] = set()
    for statement in statements:
        for node in walk(statement):
            if isinstance(node, cst.AssignTarget):
                found |= {
                    _code(n) for n in walk(node.target) if isinstance(n, cst.Name | cst.Attribute)
                }
            elif isinstance(node, cst.AugAssign | cst.AnnAssign | cst.For | cst.WithItem):
                target = getattr(node, "target", None) or getattr(node, "asname", None)
                if target is not None:
                    found |= {
                        _code(n) for n in walk(target) if isinstance(n, cst.Name | cst.Attribute)
                    }
    return found


class OptimizerOrder(Pass):
    name = "optimizer-order"
    rules = (OptimizerBeforeMove,)
    needles = (".parameters(",)

    @classmethod
    def applies_to(cls, target: Target) -> bool:
        return target.is_xla and super().applies_to(target)

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        return target.is_xla

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self._tree = node
        self._group: dict[int, tuple[int, ...]] = {}
        self._functions: dict[str, list[cst.FunctionDef]] | None = None  # when first asked

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        body = self._reordered(original_node.body, updated_node.body)
        return updated_node if body is None else updated_node.with_changes(body=body)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        body = self._reordered(original_node.body, updated_node.body)
        return updated_node if body is None else updated_node.with_changes(body=body)

    def _reordered(self, original, updated):  # type: ignore[no-untyped-def]
        """The block's statements with each move put before the optimizer built ahead of it."""
        self._group = {}  # this block's: an optimizer -> what moves with it
        order = list(range(len(original)))
        codes = [_code(statement) for statement in original]
        changed = False
        moved: set[int] = set()
        readers: list[tuple[int, int]] = []  # (optimizer, a move below it reading a new name)
        for i, statement in enumerate(original):
            built = self._optimizer(statement)
            if built is None:
                continue
            target, models = built
            builds: list[str] = []  # the optimizers built between (a GAN's second one)
            for j in range(i + 1, len(original)):
                if j in moved:
                    if any(model in codes[j] for model in models):
                        break  # already put above an optimizer built before this one
                    continue  # another model's move (`G.to(...)` before `D.to(...)`)
                also = self._optimizer(original[j])
                if also is not None:
                    builds.append(also[0])
                    continue
                if all(self._moves(original[j], model) for model in models):
                    others = [k for k in range(i + 1, j) if self._optimizer(original[k]) is None]
                    between = " ".join(codes[i + 1 : j])
                    text = codes[j]
                    if any(
                        m in codes[k] and not self._reads_only(original[k])
                        for k in others
                        for m in models
                    ):
                        break  # the model read between: where it is there would change
                    if any(t in text for t in (target, *builds)) or target in between:
                        break
                    bound = _bound([original[k] for k in others])
                    if any(re.search(rf"\b{re.escape(n)}\b", text) for n in bound):
                        # The move reads a name bound between (`device = ...`): the optimizer
                        # goes below it instead, where that is safe (_down_group).
                        readers.append((i, j))
                        break
                    line = self.get_metadata(PositionProvider, statement).start.line
                    if self.report(
                        original[j],
                        OptimizerBeforeMove,
                        f"`{text.strip().splitlines()[0]}` moved above the optimizer built at "
                        f"line {line}: on "
                        "the XLA device `.to()` gives the model new parameters, so an optimizer "
                        "built before the move steps the old CPU ones and nothing trains",
                        True,
                    ):
                        position = order.index(i)
                        if j - 1 in moved and order.index(j - 1) < position:
                            # `G.to(...)` then `D.to(...)`, each above its own optimizer: the
                            # second goes right after the first, where nothing between reads
                            # its model (the moves stay together, as written).
                            start = order.index(j - 1) + 1
                            if not any(
                                m in codes[k] and not self._reads_only(original[k])
                                for k in order[start:position]
                                for m in models
                            ):
                                position = start
                        order.remove(j)
                        order.insert(position, j)
                        moved.add(j)
                        changed = True
                    break
                if any(model in codes[j] for model in models) and not self._reads_only(original[j]):
                    break
        downs: dict[int, int] = {}  # an optimizer -> the move it goes below
        for i, statement in enumerate(original):
            built = self._optimizer(statement)
            if built is None or i in moved or order.index(i) != i:
                continue
            j = self._container_move_after(original, i, *built)
            if j is None or any(k in moved or order.index(k) != k for k in range(i, j + 1)):
                continue
            line = self.get_metadata(PositionProvider, original[j]).start.line
            first = _first_line(statement)
            if self.report(
                statement,
                OptimizerBeforeMove,
                f"`{first}` moved below the move at line {line}, which moves modules the "
                "optimizer steps (a container holding the same modules): on the XLA device "
                "`.to()` gives them new parameters, so an optimizer built before the move "
                "steps the old CPU ones and nothing trains",
                True,
            ):
                downs[i] = j
        for i, j in readers:
            if i in downs or any(k in moved or order.index(k) != k for k in range(i, j + 1)):
                continue
            group = self._down_group(original, i, j)
            if group is None:
                continue
            line = self.get_metadata(PositionProvider, original[j]).start.line
            why = "(the move reads a name bound between, so it cannot go first)"
            if self._report_down(original, i, line, group, why):
                downs[i] = j
        if not changed and not downs:
            downs = self._stale_downs(original)
        if not changed and not downs:
            return None
        statements = self._moved_up(order, list(updated)) if changed else list(updated)
        for i, j in downs.items():
            # The optimizer goes below the move, with its own comments, and the statements built
            # on it with it (a scheduler); positions i..j are as they were (nothing in them
            # moved, and no optimizer is between).
            group = [updated[k] for k in self._group.get(i, (i,))]
            for node in group:
                statements.remove(node)
            end = statements.index(updated[j])
            statements[end + 1 : end + 1] = group
        return statements

    def _stale_downs(self, original) -> dict[int, int]:  # type: ignore[no-untyped-def]
        """The optimizers the program's run shows built over a model's parameters on the CPU and
        stepped after a later statement of the same block moved the model, through a module
        that holds it too (`trainer = Wrapper(model).to(device)`: ``ModuleView
        .stale_optimizers``): each goes below the last such move, with the statements between
        that are built on it (`sched = LambdaLR(optim, ...)`), where nothing else between reads
        the optimizer or a name they bind, they read nothing bound between, and every other
        statement between that names the model moves a module (a move, or a module built and
        moved at once)."""
        pairs = self.run.program.stale_optimizers
        if not pairs:
            return {}
        lines = [self.get_metadata(PositionProvider, st) for st in original]
        found: dict[int, int] = {}
        for built, move in sorted(pairs):
            # Earlier passes may have added lines above (an import), which the line map pairs
            # up in order: the optimizer nearest its mapped line, the move as far below it.
            at, to = self.run.from_original(built), self.run.from_original(move)
            near = sorted(
                (abs(r.start.line - at), k)
                for k, r in enumerate(lines)
                if abs(r.start.line - at) <= _SLACK and self._optimizer(original[k])
            )
            if not near or near[0][1] in found:
                continue
            i = near[0][1]
            to += lines[i].start.line - at
            j = next((k for k, r in enumerate(lines) if r.start.line <= to <= r.end.line), None)
            if j is None or j <= i:
                continue
            group = self._down_group(original, i, j)
            if group is None:
                continue
            why = "(the program's run shows the parameters taken on the CPU and the model moved after)"
            if self._report_down(original, i, move, group, why):  # the line as given
                found[i] = j
        return found

    def _report_down(self, original, i: int, line: int, group: tuple[int, ...], why: str) -> bool:  # type: ignore[no-untyped-def]
        """Report the optimizer at ``i`` (and ``group``, what goes with it) moved below the move
        at ``line``; True where the fix is applied."""
        also = f" with `{_first_line(original[group[1]])}`" if len(group) > 1 else ""
        if not self.report(
            original[i],
            OptimizerBeforeMove,
            f"`{_first_line(original[i])}` moved below the move at line {line}{also} {why}: on "
            "the XLA device `.to()` gives the model new parameters, so an optimizer built "
            "before the move steps the old CPU ones and nothing trains",
            True,
        ):
            return False
        self._group[i] = group
        return True

    def _down_group(self, original, i: int, j: int) -> tuple[int, ...] | None:  # type: ignore[no-untyped-def]
        """The statements that go below the move at ``j`` with the optimizer built at ``i``:
        it, and those between built on it (`sched = LambdaLR(optim, ...)`); None where that is
        not safe: something else between reads the optimizer or a name they bind, they read a
        name bound between (the move's new binding of the model aside), or a statement between
        names the model other than to move a module."""
        target, models = self._optimizer(original[i])  # type: ignore[misc]
        group = [i]
        names = {target}
        for k in range(i + 1, j + 1):
            text = _code(original[k].with_changes(leading_lines=()))
            reads = {n.value for n in walk(original[k]) if isinstance(n, cst.Name)}
            if reads & names:
                bound = _bound([original[k]])
                if k == j or not bound or any(m in reads for m in models):
                    return None  # the move itself, or a statement built on both, reads it
                group.append(k)
                names |= bound
            elif (
                k < j
                and any(re.search(rf"\b{re.escape(m)}\b", text) for m in models)
                and not _builds_and_moves(original[k])
            ):
                return None  # the model read or changed between, other than by a move
        others = [original[k] for k in range(i + 1, j) if k not in group]
        needed = {n.value for k in group for n in walk(original[k]) if isinstance(n, cst.Name)}
        # The move may bind the model's name again (`model = model.to(device)`): the optimizer
        # is to read that binding.
        if needed & (_bound(others) | (_bound([original[j]]) - models)):
            return None  # the optimizer or its scheduler reads a name bound between
        return tuple(group)

    def _reads_only(self, statement: cst.CSTNode) -> bool:
        """``statement`` only looks at what it is given: `print(model)`, or a call of the
        module's own function or method (`self.print_network(self.G, 'G')`) whose every
        definition calls only printing, counting and formatting (`model.parameters()`,
        `p.numel()`, `print`, `str.format`) and assigns no attribute or item. Where the model is
        when it runs changes nothing: a move may go above it."""
        if not (
            isinstance(statement, cst.SimpleStatementLine)
            and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr)
            and isinstance(statement.body[0].value, cst.Call)
        ):
            return False
        call = statement.body[0].value
        if m.matches(call.func, m.Name("print")):
            return _pure_calls(c for c in walk(call) if isinstance(c, cst.Call))
        if isinstance(call.func, cst.Name):
            name = call.func.value
        elif m.matches(call.func, m.Attribute(value=m.Name("self"))):
            name = call.func.attr.value  # type: ignore[union-attr]
        else:
            return False
        if self._functions is None:
            self._functions = {}
            for found in walk(self._tree):
                if isinstance(found, cst.FunctionDef):
                    self._functions.setdefault(found.name.value, []).append(found)
        definitions = self._functions.get(name, [])
        return (
            bool(definitions)
            and all(_reads_only_body(d) for d in definitions)
            and _pure_calls(c for c in walk(call) if isinstance(c, cst.Call) and c is not call)
        )

    def _moved_up(self, order: list[int], statements: list) -> list:
        up = [k > position for position, k in enumerate(order)]
        for position in range(len(order)):
            if up[position] and not up[position + 1]:
                # The moves put above an optimizer (one, or `G.to(...)` and `D.to(...)` kept
                # together) take the blank lines and comments above it, and it takes theirs.
                start = position
                while start > 0 and up[start - 1]:
                    start -= 1
                first, after = statements[order[start]], statements[order[position + 1]]
                statements[order[start]] = first.with_changes(leading_lines=after.leading_lines)
                statements[order[position + 1]] = after.with_changes(
                    leading_lines=first.leading_lines
                )
        return [statements[k] for k in order]

    def _container_move_after(
        self, original, i: int, target: str, models: frozenset[str]
    ) -> int | None:
        """The statement after the optimizer built at ``i`` that moves a container holding a
        module the optimizer steps (`optimizer = SGD(trainable_list.parameters())`, then
        `module_list.cuda()` where both lists were given `model_s`), when the optimizer can go
        below it: nothing between reads the optimizer or names a list of modules it steps (an
        `append` there would change what it steps), nor binds a name the optimizer reads."""
        members: dict[str, set[str]] = {}
        for statement in original:
            for call in walk(statement):
                if (
                    isinstance(call, cst.Call)
                    and isinstance(call.func, cst.Attribute)
                    and call.func.attr.value in ("append", "add_module")
                    and call.args
                ):
                    owner = _code(call.func.value)
                    members.setdefault(owner, set()).add(_code(call.args[-1].value))
        stepped = set().union(*(members.get(m, {m}) for m in models))
        reads = {_code(n) for n in walk(original[i]) if isinstance(n, cst.Name)}

        def moves_stepped(statement: cst.CSTNode) -> bool:
            return any(
                members[r] & stepped
                for r in members
                if r not in models and self._moves(statement, r)
            )

        for j in range(i + 1, len(original)):
            text = _code(original[j].with_changes(leading_lines=()))  # not its comments
            if self._optimizer(original[j]) is not None or re.search(
                rf"\b{re.escape(target)}\b", text
            ):
                return None
            if moves_stepped(original[j]):
                while j + 1 < len(original) and moves_stepped(original[j + 1]):
                    j += 1  # `module_list.cuda()`, then `criterion_list.cuda()`
                bound = _bound(list(original[i + 1 : j + 1]))
                if reads & bound:
                    return None
                return j
            if any(re.search(rf"\b{re.escape(m)}\b", text) for m in models):
                return None
        return None

    def _optimizer(self, statement: cst.CSTNode) -> tuple[str, frozenset[str]] | None:
        """(the optimizer's target, the models) of `target = torch.optim.X(model.parameters(),
        ...)` (`itertools.chain(G.parameters(), D.parameters())`: both)."""
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            return None
        assign = statement.body[0]
        if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1):
            return None
        call = assign.value
        if not isinstance(call, cst.Call):
            return None
        names = self.module_names(call.func)
        if not any(
            n.startswith("torch.optim.") and n.rsplit(".", 1)[-1][:1].isupper() for n in names
        ):
            return None
        models = {
            _code(c.func.value)
            for c in walk(call)
            if isinstance(c, cst.Call)
            and isinstance(c.func, cst.Attribute)
            and c.func.attr.value in ("parameters", "named_parameters")
            and not c.args
        }
        if not models:
            return None
        return _code(assign.targets[0].target), frozenset(models)

    @classmethod
    def _moves(cls, statement: cst.CSTNode, model: str) -> bool:
        """``statement`` is `model.to(...)`, `model.cuda()` or `model = model.to(...)`, or an
        `if` whose body holds one (`if args.cuda: model.cuda(); features = features.cuda()`)."""
        if isinstance(statement, cst.If):
            body = statement.body.body if isinstance(statement.body, cst.IndentedBlock) else []
            return any(cls._moves(s, model) for s in body)
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            return False
        small = statement.body[0]
        if isinstance(small, cst.Expr) or (
            isinstance(small, cst.Assign)
            and len(small.targets) == 1
            and _code(small.targets[0].target) == model
        ):
            call = small.value
        else:
            return False
        return (
            isinstance(call, cst.Call)
            and isinstance(call.func, cst.Attribute)
            and call.func.attr.value in ("to", "cuda")
            and _code(call.func.value) == model
        )


def _first_line(statement: cst.CSTNode) -> str:
    """A statement's first line as written, without the comments above it."""
    return _code(statement.with_changes(leading_lines=())).strip().splitlines()[0]  # type: ignore[attr-defined]


def _builds_and_moves(statement: cst.CSTNode) -> bool:
    """`x = Wrapper(model, ...).to(device)` or `model.to(device)`: one assignment or expression
    whose value is a `.to(...)`/`.cuda()` call."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return False
    small = statement.body[0]
    value = small.value if isinstance(small, cst.Assign | cst.Expr) else None
    return (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value in ("to", "cuda")
    )
