"""What holds at the move of a tying model, for the tied-weights pass (``tied_weights.py``).

The test a tie depends on: a tie `__init__` makes under a test of its own parameters (TCN's
`if tied_weights:`) is asked again after the move in the caller's terms: each parameter is
replaced by what the call that built the model passed for it (`TCN(..., tied_weights=tied)` gives
`if tied:`), or by its default. Done only where those arguments certainly hold the same values
at the move: plain names and attributes (no call, no subscript), in the scope that builds the
model, bound nowhere after it is built. A test whose arguments are all constants is decided
here: always (the tie is made again unconditionally) or never (nothing to do).

What a name holds: the bindings that reach a read in straight-line order (``reaching``), so that
an assignment after the move (`model = torch.load(f)` after training) does not hide the model
moved before it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider, PositionProvider, ScopeProvider

from trncodemod.analysis.weight_ties import PLAIN, Ties
from trncodemod.passes import Pass

_SCOPES = (cst.FunctionDef, cst.Lambda, cst.ClassDef, cst.Module)


@dataclass(frozen=True)
class Asked:
    """What a test of `__init__`'s parameters is at the move: ``test`` in the caller's terms,
    or ``always``/never (``test`` None) where the arguments are constants."""

    test: str | None
    always: bool = False


def ask_again(
    owner: Pass, ties: Ties, built: list[cst.Call], move: cst.CSTNode
) -> dict[str, Asked] | str:
    """Each test ``ties.carried`` depends on, asked at ``move`` of the model ``built`` made;
    where one cannot be, why (a phrase for the finding)."""
    if len(built) != 1 or ties.signature is None:
        return "the model may be built by more than one call"
    call = built[0]
    bound = _bind(ties.signature, call)
    if isinstance(bound, str):
        return bound
    asked: dict[str, Asked] = {}
    chains: set[str] = set()
    for test in dict.fromkeys(t for _, _, t in ties.carried):
        tree = ast.parse(test, mode="eval").body
        try:
            replaced = _Replace(bound, chains).visit(tree)
        except _NotCarried as why:
            return str(why)
        if not any(isinstance(n, ast.Name) for n in ast.walk(replaced)):
            try:
                value = eval(
                    compile(ast.Expression(replaced), "<test>", "eval"), {"__builtins__": {}}
                )  # noqa: S307 (constants, `not`, `and`, comparisons only)
            except Exception:  # noqa: BLE001 (a comparison of constants that raises)
                return f"`{test}` cannot be decided from the arguments"
            asked[test] = Asked(None, always=bool(value))
        else:
            asked[test] = Asked(ast.unparse(replaced))
    if chains:
        why = _changed_after(owner, call, move, chains)
        if why:
            return why
    return asked


class _NotCarried(Exception):
    pass


class _Replace(ast.NodeTransformer):
    """A test with each parameter replaced by its argument (``chains``: the names and attribute
    chains the arguments read)."""

    def __init__(self, bound: dict[str, cst.BaseExpression | ast.expr], chains: set[str]) -> None:
        self.bound = bound
        self.chains = chains

    def visit_Name(self, node: ast.Name) -> ast.expr:
        value = self.bound.get(node.id)
        if value is None:
            raise _NotCarried(f"`{node.id}` has no argument or constant default here")
        if isinstance(value, ast.expr):
            if not isinstance(value, ast.Constant):
                raise _NotCarried(f"the default of `{node.id}` is not a constant")
            return value
        code = cst.Module([]).code_for_node(value)
        try:
            expr = ast.parse(code.strip(), mode="eval").body
        except SyntaxError as error:
            raise _NotCarried(f"`{code}` cannot be read") from error
        if not all(isinstance(n, PLAIN) for n in ast.walk(expr)):
            raise _NotCarried(
                f"the call passes `{node.id}` as `{code}`, which may not give the same value "
                "when read again"
            )
        for part in ast.walk(expr):
            if isinstance(part, ast.Attribute | ast.Name) and isinstance(part.ctx, ast.Load):
                self.chains.add(ast.unparse(part))
        return expr


def _bind(
    signature: ast.arguments, call: cst.Call
) -> dict[str, cst.BaseExpression | ast.expr] | str:
    """`__init__`'s parameters -> the argument ``call`` passes, or the default."""
    if any(arg.star for arg in call.args):
        return "the call that builds the model unpacks its arguments"
    positional = [*signature.posonlyargs, *signature.args][1:]  # not `self`
    bound: dict[str, cst.BaseExpression | ast.expr] = {}
    defaults = signature.defaults
    for param, default in zip(positional[len(positional) - len(defaults) :], defaults, strict=True):
        bound[param.arg] = default
    for param, default in zip(signature.kwonlyargs, signature.kw_defaults, strict=True):
        if default is not None:
            bound[param.arg] = default
    passed = [a for a in call.args if a.keyword is None]
    if len(passed) > len(positional) and signature.vararg is None:
        return "the call passes more arguments than `__init__` takes"
    for param, arg in zip(positional, passed, strict=False):
        bound[param.arg] = arg.value
    for arg in call.args:
        if arg.keyword is not None:
            bound[arg.keyword.value] = arg.value
    return bound


def _changed_after(owner: Pass, call: cst.Call, move: cst.CSTNode, chains: set[str]) -> str | None:
    """Why the names and attributes ``chains`` may not hold at ``move`` what they held at
    ``call``; None where they certainly do (both in one scope, nothing binds them after it)."""
    if _contains(move, call):
        return None
    scope = _scope(owner, call)
    if scope is not _scope(owner, move):
        return "the model is built in another scope than the one that moves it"
    built_at = _start(owner, call)
    if _start(owner, move) <= built_at:
        return "the move comes before the call that builds the model"
    roots = {c.split(".")[0] for c in chains}
    attributes = {"." + c.split(".", 1)[1] for c in chains if "." in c}
    module = owner._wrapper.module  # noqa: SLF001 (the tree the pass runs on)
    for node in m.findall(module, m.Global() | m.Nonlocal()):
        names = {n.name.value for n in node.names}  # type: ignore[attr-defined]
        if names & roots:
            return f"`{sorted(names & roots)[0]}` is declared global in a function"
    for target in _targets(module):
        if _start(owner, target) < built_at:
            continue
        code = cst.Module([]).code_for_node(target)
        if isinstance(target, cst.Name) and code in roots and _scope(owner, target) is scope:
            return f"`{code}` is bound again after the model is built"
        if isinstance(target, cst.Attribute) and any(code.endswith(a) for a in attributes):
            return f"`{code}` is assigned after the model is built"
    return None


def _targets(module: cst.Module) -> list[cst.BaseExpression]:
    """Every name or attribute an assignment, a loop, a `with`, a walrus or `del` binds."""
    found: list[cst.BaseExpression] = []
    pattern = (
        m.AssignTarget()
        | m.AugAssign()
        | m.AnnAssign()
        | m.For()
        | m.NamedExpr()
        | m.AsName()
        | m.Del()
    )
    for node in m.findall(module, pattern):
        target = getattr(node, "target", None) or getattr(node, "name", None)
        stack = [target]
        while stack:
            part = stack.pop()
            if isinstance(part, cst.Name | cst.Attribute):
                found.append(part)
            elif isinstance(part, cst.Tuple | cst.List):
                stack.extend(e.value for e in part.elements)
            elif isinstance(part, cst.StarredElement):
                stack.append(part.value)
    return found


def reaching(owner: Pass, name: cst.Name) -> tuple[list[cst.CSTNode], list[cst.CSTNode]] | None:
    """The bindings of ``name`` that may reach its read, in its own scope (each an assignment's
    target or an import), and those a function makes with `global` (any may reach): straight-line
    order, where the read is in no loop of its scope. A binding in a block around the read ends
    the earlier ones; one in the read's own statement or after it is left out (awd-lstm's
    `import model` ... `model = model.RNNModel(...)` ... `model.cuda()` ... `model =
    torch.load(f)`). None where its scope does not bind it or the read is in a loop."""
    scope = owner.get_metadata(ScopeProvider, name, None)
    if scope is None or in_loop(owner, name):
        return None
    own = _scope(owner, name)
    read = _statement(owner, name)
    if read is None:
        return None
    local: list[tuple[tuple[int, int], cst.CSTNode, cst.CSTNode]] = []
    foreign: list[cst.CSTNode] = []
    for assignment in scope[name.value]:
        node = getattr(assignment, "node", None)
        if node is None:
            return None
        if _scope(owner, node) is not own:
            foreign.append(node)
            continue
        statement = _statement(owner, node)
        if statement is None:
            return None
        local.append((_start(owner, statement), statement, node))
    before = sorted((x for x in local if x[0] < _start(owner, read)), key=lambda x: x[0])
    if not before:
        return None
    around = set(map(id, _blocks(owner, read)))
    for index in range(len(before) - 1, -1, -1):
        if id(owner.get_metadata(ParentNodeProvider, before[index][1], None)) in around:
            before = before[index:]
            break
    return [node for _, _, node in before], foreign


def assigned_value(owner: Pass, node: cst.CSTNode) -> cst.BaseExpression | None:
    """The value ``node`` (a binding ``reaching`` gives) is assigned as a whole target."""
    target = owner.get_metadata(ParentNodeProvider, node, None)
    if isinstance(target, cst.AssignTarget) and target.target is node:
        statement = owner.get_metadata(ParentNodeProvider, target, None)
        return statement.value if isinstance(statement, cst.Assign) else None
    if isinstance(target, cst.AnnAssign) and target.target is node:
        return target.value
    return None


def _statement(owner: Pass, node: cst.CSTNode) -> cst.CSTNode | None:
    """The statement line or compound statement that holds ``node``."""
    current: cst.CSTNode | None = node
    while current is not None and not isinstance(current, cst.BaseStatement):
        current = owner.get_metadata(ParentNodeProvider, current, None)
    return current


def _blocks(owner: Pass, node: cst.CSTNode) -> list[cst.CSTNode]:
    """The blocks around ``node`` up to its scope's body (the module itself at the top)."""
    found = []
    current = owner.get_metadata(ParentNodeProvider, node, None)
    while current is not None:
        if isinstance(current, cst.IndentedBlock | cst.Module):
            found.append(current)
        if isinstance(current, _SCOPES):
            break
        current = owner.get_metadata(ParentNodeProvider, current, None)
    return found


def in_loop(owner: Pass, node: cst.CSTNode) -> bool:
    """Whether a `for` or `while` of ``node``'s own scope holds it."""
    current = owner.get_metadata(ParentNodeProvider, node, None)
    while current is not None and not isinstance(current, _SCOPES):
        if isinstance(current, cst.For | cst.While):
            return True
        current = owner.get_metadata(ParentNodeProvider, current, None)
    return False


def _contains(outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
    return any(node is inner for node in m.findall(outer, m.Call()))


def _scope(owner: Pass, node: cst.CSTNode) -> cst.CSTNode | None:
    current = owner.get_metadata(ParentNodeProvider, node, None)
    while current is not None and not isinstance(current, _SCOPES):
        current = owner.get_metadata(ParentNodeProvider, current, None)
    return current


def _start(owner: Pass, node: cst.CSTNode) -> tuple[int, int]:
    start = owner.get_metadata(PositionProvider, node).start
    return start.line, start.column
