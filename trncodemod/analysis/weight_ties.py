"""The weights a module class ties in its `__init__` (`self.lm_head.weight = self.wte.weight`),
read from the `ast`: asked by the program model for every class of every module, and by the
tied-weights pass for the classes of its own file (``transforms/tied_weights.py``).

A class's ties are strings:

- "lm_head.weight=wte.weight" for an assignment of one plain attribute chain on the instance to
  another that `__init__` always makes: in its body, in a method or module-level function it
  calls with the instance (`self.tie_weights()`, `tie(self)`), or in the `__init__` of a module
  class of the same file it builds into an attribute (`self.decoder = Decoder(...)` gives
  "decoder.out.weight=decoder.emb.weight");
- "decoder.weight=encoder.weight if tied_weights" for one made under `if` tests that read only
  `__init__`'s parameters (never rebound there): the caller can ask the same question of the
  arguments it passed (TCN's `if tied_weights:`, AWD-LSTM's `if tie_weights:`);
- SIGNATURE + `__init__`'s parameters ("def self, vocab, tied=True"), beside such a tie, to bind
  a call's arguments to them;
- CONDITIONAL where a tie sits under any other condition, in a loop, or after an early `return`;
- PRETRAINED for a Hugging Face `PreTrainedModel` subclass that ties (it declares
  `_tied_weights_keys` or defines `get_output_embeddings`).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass, field

CONDITIONAL = "?"
PRETRAINED = "hf"
SIGNATURE = "def "
_IF = " if "
_HF_TYING = frozenset({"_tied_weights_keys", "get_output_embeddings"})
# The nodes a condition the caller can ask again may hold: no call, no subscript (each could
# give another answer the second time).
PLAIN = (
    ast.Name,
    ast.Attribute,
    ast.Constant,
    ast.BoolOp,
    ast.UnaryOp,
    ast.Compare,
    ast.boolop,
    ast.cmpop,
    ast.expr_context,
    ast.Not,
)
_HELPER_DEPTH = 3


def _chain(node: ast.expr, root: str) -> str | None:
    """`a.b` for `root.a.b` (plain attributes, two or more), else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id != root or len(parts) < 2:
        return None
    return ".".join(reversed(parts))


def tie_of(statement: ast.stmt, root: str) -> tuple[str, str] | None:
    """``(target, source)`` where ``statement`` is `root.x.w = root.y.w` and what it shares is
    a parameter (`.weight`, `.bias`, `.embed_weight`): a shared submodule
    (`self.decoder.token_emb = self.encoder.token_emb`) is one module, which `.to()` moves once,
    so it stays shared on the XLA device (measured by a first-sight reviewer: the two are the
    same object after `.to('xla')`)."""
    if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
        return None
    target, source = _chain(statement.targets[0], root), _chain(statement.value, root)
    if not (target and source) or not all(_parameter_name(c) for c in (target, source)):
        return None
    return target, source


def _parameter_name(chain: str) -> bool:
    return chain.rsplit(".", 1)[-1].lower().endswith(("weight", "bias"))


def _base_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


def _own_nodes(body: list[ast.stmt]):
    """Every node of ``body`` outside the functions, classes and lambdas it defines."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Starred):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _rebound(function: ast.FunctionDef) -> set[str]:
    """Names ``function`` binds or changes the attributes of (`tied = ...`, `cfg.tie = ...`)."""
    names: set[str] = set()
    for node in _own_nodes(function.body):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(
            node, ast.AugAssign | ast.AnnAssign | ast.For | ast.AsyncFor | ast.NamedExpr
        ):
            targets = [node.target]
        elif isinstance(node, ast.With | ast.AsyncWith):
            targets = [i.optional_vars for i in node.items if i.optional_vars is not None]
        elif isinstance(node, ast.Global | ast.Nonlocal):
            names.update(node.names)
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.expr) and (name := _root(part)):
                    names.add(name)
    return names


@dataclass
class _Walk:
    """One `__init__` read statement by statement, with the `if` tests that lead to each."""

    root: str
    parameters: frozenset[str]
    methods: Mapping[str, ast.FunctionDef]
    functions: Mapping[str, ast.FunctionDef]
    classes: Mapping[str, tuple[str, ...]]
    assigned_once: frozenset[str]
    ties: list[str] = field(default_factory=list)
    # id(an `__init__` of the class or a base) -> the next base's `__init__` (`super().__init__`)
    bases: dict[int, ast.FunctionDef] = field(default_factory=dict)
    chain: frozenset[str] = frozenset()  # the names of the class and its bases here

    def add(self, tie: str, path: list[ast.expr] | None) -> None:
        """A tie made where ``path`` (the tests that lead to it) holds; None: not carried."""
        if path is None:
            tie = CONDITIONAL
        elif path:
            test = path[0] if len(path) == 1 else ast.BoolOp(op=ast.And(), values=path)
            tie += _IF + ast.unparse(test)
        if tie not in self.ties:
            self.ties.append(tie)

    def carried(self, test: ast.expr) -> bool:
        """Whether the caller can ask ``test`` again of its arguments: it reads only parameters
        of `__init__` that `__init__` never rebinds, and calls nothing."""
        return all(isinstance(n, PLAIN) for n in ast.walk(test)) and all(
            n.id in self.parameters for n in ast.walk(test) if isinstance(n, ast.Name)
        )

    def body(
        self,
        statements: list[ast.stmt],
        root: str,
        path: list | None,
        depth: int,
        function: ast.FunctionDef | None = None,
    ) -> None:
        exited = False  # after an `if` that may return, what follows is not certain
        for statement in statements:
            here = None if exited else path
            tie = tie_of(statement, root)
            if tie is not None:
                self.add("=".join(tie), here)
                continue
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            if isinstance(statement, ast.Return):
                return
            if isinstance(statement, ast.If):
                carried = here is not None and depth == 0 and self.carried(statement.test)
                inside = otherwise = None
                if carried:
                    negated = ast.UnaryOp(op=ast.Not(), operand=statement.test)
                    inside = [*here, statement.test]  # type: ignore[misc]
                    otherwise = [*here, negated]  # type: ignore[misc]
                self.body(statement.body, root, inside, depth, function)
                self.body(statement.orelse, root, otherwise, depth, function)
            elif (
                helper := self._helper(statement, root, function)
            ) is not None and depth < _HELPER_DEPTH:
                self.body(helper[0].body, helper[1], here, depth + 1, helper[0])
            elif (nested := self._nested(statement, root)) is not None:
                for tie in nested:
                    self.add(tie, here if _IF not in tie and tie != CONDITIONAL else None)
            else:
                nested_stmts = (n for n in ast.walk(statement) if isinstance(n, ast.stmt))
                if any(tie_of(n, root) for n in nested_stmts if n is not statement):
                    self.add(CONDITIONAL, None)
            if any(isinstance(n, ast.Return) for n in _own_nodes([statement])):
                exited = True

    def _helper(
        self, statement: ast.stmt, root: str, function: ast.FunctionDef | None
    ) -> tuple[ast.FunctionDef, str] | None:
        """The method (`self.tie_weights()`), module-level function (`tie(self)`) or base
        class `__init__` (`super().__init__(...)`) that ``statement`` calls with the instance,
        with the name it has there."""
        if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
            return None
        call = statement.value
        func = call.func
        base = self.bases.get(id(function)) if function is not None else None
        if base is not None and isinstance(func, ast.Attribute) and func.attr == "__init__":
            owner = func.value
            by_super = isinstance(owner, ast.Call) and _base_name(owner.func) == "super"
            by_name = (
                isinstance(owner, ast.Name)
                and owner.id in self.chain
                and bool(call.args)
                and isinstance(call.args[0], ast.Name)
                and call.args[0].id == root
            )
            if (by_super or by_name) and base.args.args:
                return base, base.args.args[0].arg
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == root
            and func.attr in self.methods
            and func.attr != "__init__"
        ):
            method = self.methods[func.attr]
            if method.decorator_list or not method.args.args:
                return None  # a staticmethod or classmethod gets no instance
            return method, method.args.args[0].arg
        if isinstance(func, ast.Name) and func.id in self.functions:
            function = self.functions[func.id]
            positional = [*function.args.posonlyargs, *function.args.args]
            for index, arg in enumerate(call.args):
                if isinstance(arg, ast.Name) and arg.id == root and index < len(positional):
                    return function, positional[index].arg
            for keyword in call.keywords:
                value = keyword.value
                if isinstance(value, ast.Name) and value.id == root and keyword.arg:
                    return function, keyword.arg
        return None

    def _nested(self, statement: ast.stmt, root: str) -> list[str] | None:
        """The ties of a module class of the file that ``statement`` builds into an attribute
        of the instance assigned nowhere else (`self.decoder = Decoder(...)`), each prefixed."""
        if not (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.value, ast.Call)
            and isinstance(statement.value.func, ast.Name)
        ):
            return None
        target = statement.targets[0]
        if not (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == root
            and target.attr in self.assigned_once
        ):
            return None
        ties = self.classes.get(statement.value.func.id)
        if not ties:
            return None
        prefixed = []
        for tie in ties:
            if tie.startswith(SIGNATURE):
                continue
            if tie in (CONDITIONAL, PRETRAINED) or _IF in tie:
                prefixed.append(CONDITIONAL)  # asked of the inner class's own arguments
                continue
            a, b = tie.split("=", 1)
            prefixed.append(f"{target.attr}.{a}={target.attr}.{b}")
        return prefixed


def _attributes_once(chain: list[ast.ClassDef]) -> frozenset[str]:
    """The `self.<name>` attributes the methods of the class and its bases assign once."""
    counts: dict[str, int] = {}
    methods = [m for c in chain for m in c.body if isinstance(m, ast.FunctionDef)]
    for method in methods:
        root = method.args.args[0].arg if method.args.args else None
        for node in _own_nodes(method.body):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            for target in targets:
                for part in ast.walk(target):
                    if (
                        isinstance(part, ast.Attribute)
                        and isinstance(part.value, ast.Name)
                        and part.value.id == root
                    ):
                        counts[part.attr] = counts.get(part.attr, 0) + 1
    return frozenset(name for name, count in counts.items() if count == 1)


def _lineage(cls: ast.ClassDef, definitions: Mapping[str, ast.ClassDef]) -> list[ast.ClassDef]:
    """The class, then its first base while that is a class of the same module (the class
    `super()` goes to where each has one base there)."""
    chain = [cls]
    while chain[-1].bases and isinstance(chain[-1].bases[0], ast.Name):
        base = definitions.get(chain[-1].bases[0].id)
        if base is None or base in chain:
            break
        chain.append(base)
    return chain


def _init(cls: ast.ClassDef) -> ast.FunctionDef | None:
    return next(
        (s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None
    )


def class_ties(
    cls: ast.ClassDef,
    functions: Mapping[str, ast.FunctionDef] | None = None,
    classes: Mapping[str, tuple[str, ...]] | None = None,
    definitions: Mapping[str, ast.ClassDef] | None = None,
) -> tuple[str, ...]:
    """The ties of ``cls`` (see the module's docstring); () where it ties nothing.
    ``functions``: the module's top-level functions; ``classes``: the ties of the module's
    other classes; ``definitions``: the module's classes (a base's `__init__` and methods are
    the class's where it does not define its own)."""
    ties: list[str] = []
    chain = _lineage(cls, definitions or {})
    methods: dict[str, ast.FunctionDef] = {}
    for owner in reversed(chain):
        methods.update({s.name: s for s in owner.body if isinstance(s, ast.FunctionDef)})
    defined = {
        n
        for s in cls.body
        for n in (
            [s.name]
            if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
            else [t.id for t in getattr(s, "targets", ()) if isinstance(t, ast.Name)]
        )
    }
    if any(_base_name(b).endswith("PreTrainedModel") for b in cls.bases) and defined & _HF_TYING:
        ties.append(PRETRAINED)
    inits = [i for c in chain if (i := _init(c)) is not None]
    init = inits[0] if inits else None
    if init is None or not init.args.args:
        return tuple(ties)
    root = init.args.args[0].arg
    arguments = init.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    parameters = frozenset(a.arg for a in every[1:]) - _rebound(init)
    walk = _Walk(
        root,
        parameters,
        methods,
        functions or {},
        {k: v for k, v in (classes or {}).items() if k not in {c.name for c in chain}},
        _attributes_once(chain),
        ties,
        {id(a): b for a, b in zip(inits, inits[1:], strict=False)},
        frozenset(c.name for c in chain),
    )
    walk.body(init.body, root, [], 0, init)
    if any(_IF in t for t in ties):
        ties.append(SIGNATURE + ast.unparse(arguments))
    return tuple(ties)


def module_ties(tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """The ties of each top-level class of ``tree`` that ties (``class_ties``), those of a class
    it builds into an attribute included."""
    functions = {s.name: s for s in tree.body if isinstance(s, ast.FunctionDef)}
    classes = [s for s in tree.body if isinstance(s, ast.ClassDef)]
    definitions = {c.name: c for c in classes}
    found: dict[str, tuple[str, ...]] = {}
    for _ in range(3):  # a class built by one built by another: followed three deep
        before = dict(found)
        for cls in classes:
            ties = class_ties(cls, functions, before, definitions)
            if ties:
                found[cls.name] = ties
        if found == before:
            break
    return found


@dataclass(frozen=True)
class Ties:
    """A class's ties as the tied-weights pass reads them: ``certain`` ties, ``carried`` ties
    with the test on `__init__`'s parameters they depend on, ``signature`` (`__init__`'s
    parameters), whether one depends on a condition the caller cannot ask (``conditional``) and
    whether it is a tying `PreTrainedModel`; ``ordered``: both, in the order `__init__` makes
    them (test None for a certain one), the order they are made again in."""

    certain: tuple[tuple[str, str], ...]
    carried: tuple[tuple[str, str, str], ...]
    signature: ast.arguments | None
    conditional: bool
    pretrained: bool
    ordered: tuple[tuple[str, str, str | None], ...] = ()

    @classmethod
    def read(cls, ties: tuple[str, ...]) -> Ties:
        certain: list[tuple[str, str]] = []
        carried: list[tuple[str, str, str]] = []
        ordered: list[tuple[str, str, str | None]] = []
        signature = None
        for tie in ties:
            if tie in (CONDITIONAL, PRETRAINED):
                continue
            if tie.startswith(SIGNATURE):
                function = ast.parse(f"def f({tie[len(SIGNATURE) :]}): pass").body[0]
                signature = function.args  # type: ignore[attr-defined]
            elif _IF in tie:
                pair, _, test = tie.partition(_IF)
                a, b = pair.split("=", 1)
                carried.append((a, b, test))
                ordered.append((a, b, test))
            else:
                a, b = tie.split("=", 1)
                certain.append((a, b))
                ordered.append((a, b, None))
        return cls(
            tuple(certain),
            tuple(carried),
            signature,
            CONDITIONAL in ties or (bool(carried) and signature is None),
            PRETRAINED in ties,
            tuple(ordered),
        )
