"""The first stage of the ``cpu-fallback`` and ``recompilation`` passes: one walk of Python's
``ast`` that tells, as a superset of what ``fallback_facts.Facts`` finds on the LibCST tree,
whether a file may hold an op of the fallback table, boolean-mask indexing, an integer operand
of a matmul, or a size read of a data-dependent value (``Pass.candidate`` asks it).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.facts import dotted as ast_dotted
from trncodemod.analysis.fallback_ops import (
    BOOL_FUNCTIONS,
    BOOL_METHODS,
    HOST_HELPERS,
    HOST_METHODS,
    INT_METHODS,
    INT_SOURCES,
    op_names,
)

_AST_NON_VALUE = (ast.Is, ast.IsNot, ast.In, ast.NotIn)
_SIZE_READS = ("size", "numel")
_AST_LEAVES = (ast.expr_context, ast.operator, ast.cmpop, ast.unaryop, ast.boolop)
_AST_BITS = (ast.BitAnd, ast.BitOr, ast.BitXor)


class FallbackScan:
    """What one walk of the ast says for the first stage of cpu-fallback and recompilation:
    the file's imports (every module a name may be bound to), one-argument calls, integer matmul
    operators, and whether a subscript may index with a boolean mask (Facts.is_mask_index, with
    names followed to any value they are assigned anywhere: a superset of bound_values)."""

    def __init__(self, facts: FileFacts) -> None:
        self.imports: dict[str, set[str]] = {}
        self.assigned = facts.assigned  # name -> values, as Facts follows names (a superset)
        self.one_argument: list[ast.Call] = []
        self.matmul = False
        self.matmuls: list[ast.BinOp] = []  # `a @ b`
        self.calls: list[ast.Call] = []
        self.methods: set[str] = set()  # names of methods called (`x.unique()`)
        self.subscripts: list[ast.Subscript] = []
        # What a size is read of (recompilation's _size_of): `v.shape`, `v.size()`,
        # `v.numel()`, `len(v)` (any one-argument call where `builtins` is spelled).
        self.sized: list[ast.expr] = []
        builtins = "builtins" in facts.identifiers
        # ast.walk, at half its cost: fields read directly, operator and context nodes left out.
        stack: list[ast.AST] = [facts.tree]
        pop, push = stack.pop, stack.append
        while stack:
            node = pop()
            for name in node._fields:
                value = getattr(node, name, None)
                if type(value) is list:
                    for item in value:
                        if isinstance(item, ast.AST):
                            push(item)
                elif isinstance(value, ast.AST) and not isinstance(value, _AST_LEAVES):
                    push(value)
            kind = type(node)
            if kind is ast.Subscript:
                self.subscripts.append(node)
            elif kind is ast.Attribute:
                if node.attr == "shape":
                    self.sized.append(node.value)
            elif kind is ast.Call:
                self.calls.append(node)
                func = node.func
                if type(func) is ast.Attribute:
                    self.methods.add(func.attr)
                    if func.attr in _SIZE_READS:
                        self.sized.append(func.value)
                if len(node.args) + len(node.keywords) == 1:
                    if node.args:
                        self.one_argument.append(node)
                    if builtins or (type(func) is ast.Name and func.id == "len"):
                        first = node.args[0] if node.args else node.keywords[0].value
                        self.sized.append(first.value if type(first) is ast.Starred else first)
            elif kind is ast.BinOp:
                if type(node.op) is ast.MatMult:
                    self.matmul = True
                    self.matmuls.append(node)
            elif kind is ast.Import:
                for alias in node.names:
                    if alias.asname:
                        self.imports.setdefault(alias.asname, set()).add(alias.name)
                    else:
                        head = alias.name.split(".", 1)[0]
                        self.imports.setdefault(head, set()).add(head)
            elif kind is ast.ImportFrom and node.module and not node.level:
                for alias in node.names:
                    bound = alias.asname or alias.name
                    self.imports.setdefault(bound, set()).add(f"{node.module}.{alias.name}")
        self._bool_names: set[str] | None = None
        self._int_names: set[str] | None = None
        self._host_names: set[str] | None = None
        self._mask_index: bool | None = None

    @property
    def mask_index(self) -> bool:
        """Whether a subscript may index with a boolean mask (Facts.is_mask_index)."""
        if self._mask_index is None:
            self._mask_index = any(self._indexes_with_mask(s) for s in self.subscripts)
        return self._mask_index

    def names_bool(self) -> set[str]:
        """Names any of whose assigned values may be boolean, to a fixed point: a superset of
        Facts.is_bool's names followed ``_DEPTH`` deep, where every value must be."""
        if self._bool_names is None:
            self._bool_names = set()
            self._grow(self._bool_names, self.is_bool)
        return self._bool_names

    def names_int(self) -> set[str]:
        """Names any of whose values may be an integer tensor (Facts.is_int), as names_bool."""
        if self._int_names is None:
            self._int_names = set()
            self._grow(self._int_names, self.may_be_int)
        return self._int_names

    def names_host(self) -> set[str]:
        """Names any of whose values may be on the host (Facts.on_host), as names_bool."""
        if self._host_names is None:
            self._host_names = set()
            self._grow(self._host_names, self.may_be_on_host)
        return self._host_names

    def _grow(self, names: set[str], test: Callable[[ast.AST], bool]) -> None:
        """Add to ``names`` the names any of whose assigned values pass ``test``, to a fixed
        point (``test`` reads ``names`` as it grows)."""
        changed = True
        while changed:
            changed = False
            for name, values in self.assigned.items():
                if name not in names and any(test(v) for v in values):
                    names.add(name)
                    changed = True

    def may_be_int(self, node: ast.AST) -> bool:
        """A superset of Facts.is_int: a call of an integer-making function, method or dtype
        (any `dtype=`, `.to(...)`, `.type(...)`), or a name one of whose values may be one."""
        kind = type(node)
        if kind is ast.Call:
            func = node.func  # type: ignore[attr-defined]
            if not self.names(func).isdisjoint(INT_SOURCES):
                return True
            method = func.attr if type(func) is ast.Attribute else None
            return (
                method in INT_METHODS
                or method in ("to", "type")
                or any(k.arg == "dtype" for k in node.keywords)  # type: ignore[attr-defined]
            )
        if kind is ast.Name and node.id in self.assigned:  # type: ignore[attr-defined]
            return node.id in self.names_int()  # type: ignore[attr-defined]
        return False

    def may_be_on_host(self, node: ast.AST) -> bool:
        """A superset of Facts.on_host: along the receiver chain, a NumPy call, `.cpu()`,
        `.numpy()` or any `.to(...)`, or a name one of whose values may be on the host."""
        while True:
            kind = type(node)
            if kind is ast.Call:
                func = node.func  # type: ignore[attr-defined]
                if any(n.split(".")[0] == "numpy" for n in self.names(func)):
                    return True
                if type(func) is ast.Attribute and (func.attr in HOST_METHODS or func.attr == "to"):
                    return True
                if (func.attr if type(func) is ast.Attribute else getattr(func, "id", "")) in (
                    HOST_HELPERS
                ):
                    return True
                node = func
            elif kind is ast.Attribute or kind is ast.Subscript:
                node = node.value  # type: ignore[attr-defined]
            elif kind is ast.Name and node.id in self.assigned:  # type: ignore[attr-defined]
                return node.id in self.names_host()  # type: ignore[attr-defined]
            else:
                return False

    def names(self, node: ast.AST) -> set[str]:
        """The qualified names a dotted name may have through the file's imports."""
        name = ast_dotted(node)
        if name is None:
            return set()
        head, _, rest = name.partition(".")
        return {f"{m}.{rest}" if rest else m for m in self.imports.get(head, ())}

    def _indexes_with_mask(self, node: ast.Subscript) -> bool:
        index = node.slice
        elements = index.elts if type(index) is ast.Tuple else [index]
        return any(type(e) is not ast.Slice and self.is_bool(e) for e in elements)

    def is_bool(self, node: ast.AST) -> bool:
        """A superset of Facts.is_bool."""
        kind = type(node)
        if kind is ast.Compare:
            return not any(isinstance(op, _AST_NON_VALUE) for op in node.ops)
        if kind is ast.UnaryOp:
            return type(node.op) is ast.Invert and self.is_bool(node.operand)
        if kind is ast.BinOp:
            return isinstance(node.op, _AST_BITS) and (
                self.is_bool(node.left) or self.is_bool(node.right)
            )
        if kind is ast.Call:
            func = node.func
            if not self.names(func).isdisjoint(BOOL_FUNCTIONS):
                return True
            method = func.attr if type(func) is ast.Attribute else None
            if method in BOOL_METHODS:
                return True
            dtype = next((k.value for k in node.keywords if k.arg == "dtype"), None)
            if dtype is None and method in ("to", "type"):
                positional = [a for a in node.args if type(a) is not ast.Starred]
                dtype = positional[0] if positional else None
            return dtype is not None and "torch.bool" in self.names(dtype)
        if kind is ast.Name and node.id in self.assigned:
            # While the fixed point is worked out, the names found so far.
            return node.id in self.names_bool()
        return False

    def dynamic(self, node: ast.AST) -> bool:
        """A superset of Facts.dynamic_shape: a dynamic-shape op of the table (its condition
        not checked) or boolean-mask indexing, at the root of a chain of calls, attributes and
        subscripts."""
        table = op_names()
        while True:
            kind = type(node)
            if kind is ast.Call:
                func = node.func
                if (
                    type(func) is ast.Attribute and func.attr in table.dynamic_methods
                ) or not self.names(func).isdisjoint(table.dynamic_functions):
                    return True
                node = func
            elif kind is ast.Subscript:
                if self._indexes_with_mask(node):
                    return True
                node = node.value
            elif kind is ast.Attribute:
                node = node.value
            else:
                return False

    def reads_dynamic_size(self) -> bool:
        """A size read of a data-dependent size (recompilation's TRN431): of a dynamic value, or
        of a name assigned one (its _dynamic follows one name)."""
        for value in self.sized:
            if self.dynamic(value):
                return True
            if type(value) is ast.Name and any(
                self.dynamic(v) for v in self.assigned.get(value.id, ())
            ):
                return True
        return False

    def integer_operand(self) -> bool:
        """Whether an integer-operand op (`@`, `matmul`, `topk`...) may have an integer tensor
        operand (Facts._applies, and `@` in visit_Module): a superset, by may_be_int."""
        table = op_names()
        for call in self.calls:
            func = call.func
            method = type(func) is ast.Attribute and func.attr in table.integer_methods
            if not method and self.names(func).isdisjoint(table.integer_functions):
                continue
            operands = [a for a in call.args if type(a) is not ast.Starred][:2]
            if method:
                operands.append(func.value)  # type: ignore[attr-defined]
            if any(self.may_be_int(operand) for operand in operands):
                return True
        return any(self.may_be_int(op.left) or self.may_be_int(op.right) for op in self.matmuls)

    def where_one_argument(self, functions: tuple[str, ...]) -> bool:
        """A one-argument call of one of ``functions`` (`torch.where(cond)`)."""
        return any(not self.names(c.func).isdisjoint(functions) for c in self.one_argument)


_fallback_scan: tuple[ast.Module, FallbackScan] | None = None


def fallback_scan(facts: FileFacts) -> FallbackScan:
    """The FallbackScan of ``facts``' tree, kept for the newest tree asked about."""
    global _fallback_scan
    if _fallback_scan is None or _fallback_scan[0] is not facts.tree:
        _fallback_scan = (facts.tree, FallbackScan(facts))
    return _fallback_scan[1]


def may_be_int(facts: FileFacts) -> bool:
    """Whether Facts.is_int can hold anywhere in the file: an integer-making function or dtype
    is reached through an import, or an integer method (`.long()`) is called."""
    return facts.reaches(*INT_SOURCES) or not facts.calls.isdisjoint(INT_METHODS)


def may_read_dynamic_size(facts: FileFacts) -> bool:
    """Whether the file may read the size of a data-dependent value (recompilation's TRN431):
    a dynamic-shape op or a subscript must be there before the walk."""
    table = op_names()
    if not (
        facts.subscripts
        or facts.reaches(*table.dynamic_functions)
        or not facts.calls.isdisjoint(table.dynamic_methods)
    ):
        return False
    return fallback_scan(facts).reads_dynamic_size()
