"""Where a float64 tensor made on the host goes: the proof that keeps it float64 (TRN209).

Host code computes schedules and tables in double on purpose and casts them before they reach the
device: a diffusion model's noise schedule is `torch.linspace(..., dtype=torch.float64)`, then
`torch.cumprod`, then `register_buffer(name, val.to(torch.float32))` (lucidrains'
denoising-diffusion-pytorch); casting it at creation instead moves the posterior coefficients by
up to 1.3e-3 relative (measured). The proof follows the tensor from where it is made through
arithmetic, torch functions, variables, lambdas and functions of the module, and succeeds only
where every way out of it is a cast to another dtype (`.float()`, `.to(torch.float32)`,
`dtype=torch.float32`), a host value (`.numpy()`, `.item()`, `int(...)`), or a read of its
shape. Anything else (a move to a device, an attribute, a buffer registered as it is, a call the
tool cannot see into) fails it, and the pass rewrites as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import ParentNodeProvider, PositionProvider, ScopeProvider

if TYPE_CHECKING:
    from trncodemod.transforms.float64 import Float64ToFloat32

# torch functions that make a new tensor from sizes or data: without `device=` it is on the host.
FACTORIES = frozenset(
    f"torch.{name}"
    for name in (
        "arange",
        "linspace",
        "logspace",
        "zeros",
        "ones",
        "empty",
        "full",
        "eye",
        "rand",
        "randn",
        "tensor",
        "as_tensor",
        "asarray",
        "from_numpy",
    )
)
# Reading these gives no tensor (or a host one) back.
_META = frozenset({"shape", "dtype", "device", "ndim", "is_cuda", "requires_grad", "names"})
_HOST_RESULTS = frozenset({"numpy", "tolist", "item", "size", "dim", "numel", "nelement"})
_CASTS = frozenset({"float", "half", "bfloat16", "long", "int", "short", "bool"})
_MOVES = frozenset({"to", "cuda", "type", "xpu", "mps", "share_memory_", "register_hook"})
_BUILTINS = frozenset(
    f"builtins.{name}"
    for name in ("int", "float", "len", "print", "str", "repr", "bool", "isinstance", "range")
)
_NOT_F64 = frozenset(
    f"torch.{name}"
    for name in ("float32", "float", "float16", "half", "bfloat16", "int64", "long", "int32")
)
_MAX_DEPTH = 16  # variables, returns and calls followed from the tensor


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


class HostFloat64:
    """Answers, for one run of the float64 pass, how a host float64 tensor is cast."""

    def __init__(self, owner: Float64ToFloat32) -> None:
        self.owner = owner
        self._parameters: dict[tuple[cst.CSTNode, str], list[tuple[int, str]] | None] = {}

    # -- where the tensor is made ------------------------------------------------------------------
    def made_on_host(self, call: cst.Call) -> bool:
        """A torch factory without `device=`, outside a `with torch.device(...)` block, in a
        module that sets no default device: the tensor is made on the CPU."""
        owner = self.owner
        if not owner._is(call.func, FACTORIES):
            return False
        if any(arg.keyword and arg.keyword.value == "device" for arg in call.args):
            return False
        if any(arg.star for arg in call.args):
            return False
        facts = owner.run.facts
        if facts is not None and "set_default_device" in facts.calls:
            return False
        node: cst.CSTNode | None = call
        while node is not None:
            node = owner.get_metadata(ParentNodeProvider, node, None)
            if isinstance(node, cst.With) and any(
                isinstance(item.item, cst.Call) and owner._is(item.item.func, {"torch.device"})
                for item in node.items
            ):
                return False
        return True

    # -- where it goes -----------------------------------------------------------------------------
    def cast_before_device(self, node: cst.BaseExpression) -> str | None:
        """How the host tensor ``node`` is cast before it can reach the device (the first cast,
        with its line), or None when some use of it is not proven to cast it."""
        casts: list[tuple[int, str]] = []
        if not self._flows(node, 0, casts, set()):
            return None
        if not casts:
            return "it is only read on the host"
        line, what = min(casts)
        return f"cast by {what} at line {line}"

    def _line(self, node: cst.CSTNode) -> int:
        return self.owner.get_metadata(PositionProvider, node).start.line

    def _parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.owner.get_metadata(ParentNodeProvider, node, None)

    def _flows(
        self,
        node: cst.BaseExpression,
        depth: int,
        casts: list[tuple[int, str]],
        seen: set[cst.CSTNode],
    ) -> bool:
        """Whether every way out of ``node``'s value is a cast or a host value."""
        if depth > _MAX_DEPTH:
            return False
        if node in seen:
            return True  # followed already: it is proven or fails there
        seen.add(node)
        parent = self._parent(node)
        more = depth  # expressions nest freely; a variable, call or return is a hop
        if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation)):
            return self._flows(parent, more, casts, seen)
        if isinstance(parent, cst.IfExp):
            return parent.test is node or self._flows(parent, more, casts, seen)
        if isinstance(parent, (cst.Comparison, cst.ComparisonTarget, cst.Expr)):
            return True  # a boolean, or a value nobody keeps
        if isinstance(parent, cst.Subscript):
            return parent.value is node and self._flows(parent, more, casts, seen)
        if isinstance(parent, cst.Attribute) and parent.value is node:
            return self._attribute(parent, more, casts, seen)
        if isinstance(parent, cst.Arg) and parent.value is node and not parent.star:
            call = self._parent(parent)
            return isinstance(call, cst.Call) and self._argument(call, parent, more, casts, seen)
        if isinstance(parent, (cst.Assign, cst.AnnAssign)) and parent.value is node:
            return self._assigned(parent, depth + 1, casts, seen)
        if isinstance(parent, cst.Return) and parent.value is node:
            return self._returned(parent, depth + 1, casts, seen)
        return False

    def _attribute(
        self,
        attribute: cst.Attribute,
        depth: int,
        casts: list[tuple[int, str]],
        seen: set[cst.CSTNode],
    ) -> bool:
        name = attribute.attr.value
        if name in _META:
            return True
        call = self._parent(attribute)
        if not isinstance(call, cst.Call) or call.func is not attribute:
            return name == "T" and self._flows(attribute, depth, casts, seen)
        if name in _HOST_RESULTS:
            return True
        if name in _CASTS and not call.args:
            casts.append((self._line(call), f"`.{name}()`"))
            return True
        if name in _MOVES:
            if name in ("to", "type") and self._casts_in(call):
                casts.append((self._line(call), f"`{_code(call)}`"))
                return True
            return False
        # A tensor method (`.sigmoid()`, `.clamp(...)`, `.cpu()`): a host tensor again.
        return self._flows(call, depth, casts, seen)

    def _casts_in(self, call: cst.Call) -> bool:
        """A dtype other than float64 among the call's arguments (`.to(torch.float32)`,
        `.to(device, dtype=torch.float32)`)."""
        return any(
            not arg.star
            and (arg.keyword is None or arg.keyword.value == "dtype")
            and self.owner._is(arg.value, _NOT_F64)
            for arg in call.args
        )

    def _argument(
        self,
        call: cst.Call,
        arg: cst.Arg,
        depth: int,
        casts: list[tuple[int, str]],
        seen: set[cst.CSTNode],
    ) -> bool:
        owner = self.owner
        names = owner._names(call.func)
        if names & _BUILTINS:
            return True
        if any(name.startswith("torch.") for name in names):
            keywords = {a.keyword.value: a for a in call.args if a.keyword}
            if "device" in keywords or "out" in keywords:
                return False
            dtype = keywords.get("dtype")
            if dtype is not None and owner._is(dtype.value, _NOT_F64):
                casts.append((self._line(call), f"`{_code(call.func)}(..., dtype=...)`"))
                return True
            return self._flows(call, depth, casts, seen)
        if not isinstance(call.func, cst.Name):
            return False
        callee = self._callee(call.func)
        if isinstance(callee, cst.Call):  # functools.partial(torch.tensor, dtype=torch.float32)
            if owner._is(callee.func, {"functools.partial"}) and self._partial_casts(callee):
                casts.append((self._line(call), f"`{call.func.value}(...)`"))
                return True
            return False
        if isinstance(callee, (cst.Lambda, cst.FunctionDef)):
            param = self._parameter(callee, call, arg)
            if param is None:
                return False
            proven = self._parameter_proof(callee, param, depth + 1)
            if proven is None:
                return False
            what = f"`{call.func.value}(...)`"
            casts.extend((self._line(call), f"{what} ({text.strip('`')})") for _, text in proven)
            return True
        return False

    def _parameter_proof(
        self, function: cst.Lambda | cst.FunctionDef, param: cst.Param, depth: int
    ) -> list[tuple[int, str]] | None:
        """The casts every read of ``param`` in ``function`` reaches, worked out once per
        parameter; None when one read is not proven (or while it is being worked out)."""
        key = (function, param.name.value)
        if key not in self._parameters:
            self._parameters[key] = None  # a recursive call meets it unproven
            found: list[tuple[int, str]] = []
            reads = self._reads(function, param)
            if reads and all(self._flows(read, depth, found, set()) for read in reads):
                self._parameters[key] = found
        return self._parameters[key]

    def _partial_casts(self, partial: cst.Call) -> bool:
        args = list(partial.args)
        return (
            bool(args)
            and args[0].keyword is None
            and self.owner._is(args[0].value, {"torch.tensor", "torch.as_tensor"})
            and any(
                a.keyword is not None
                and a.keyword.value == "dtype"
                and self.owner._is(a.value, _NOT_F64)
                for a in args
            )
        )

    def _callee(self, name: cst.Name) -> cst.CSTNode | None:
        """What a called name is bound to, where it is bound once: a lambda or call assigned to
        it, or a function defined under it."""
        scope = self.owner.get_metadata(ScopeProvider, name, None)
        if scope is None:
            return None
        assignments = list(scope[name.value])
        if len(assignments) != 1:
            return None
        bound = getattr(assignments[0], "node", None)
        if isinstance(bound, cst.FunctionDef):
            return bound if not bound.decorators else None
        if isinstance(bound, cst.Name):
            target = self._parent(bound)
            statement = self._parent(target) if isinstance(target, cst.AssignTarget) else None
            if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
                return statement.value
        return None

    @staticmethod
    def _parameter(function: cst.Lambda | cst.FunctionDef, call: cst.Call, arg: cst.Arg):
        """The parameter of ``function`` that ``arg`` of ``call`` binds, if plain."""
        params = function.params
        if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.star_kwarg is not None:
            return None
        plain = [*params.posonly_params, *params.params]
        if arg.keyword is not None:
            names = [*plain, *params.kwonly_params]
            return next((p for p in names if p.name.value == arg.keyword.value), None)
        index = [a for a in call.args if a.keyword is None].index(arg)
        return plain[index] if index < len(plain) else None

    def _reads(self, function: cst.Lambda | cst.FunctionDef, param: cst.Param) -> list[cst.Name]:
        """Every read of ``param`` in ``function``'s body; empty when it is assigned there."""
        body = function.body
        reads: list[cst.Name] = []
        stack: list[cst.CSTNode] = [body]
        while stack:
            node = stack.pop()
            if isinstance(node, (cst.Lambda, cst.FunctionDef, cst.ClassDef)) and node is not body:
                return []  # a nested scope may rebind it: not followed
            if isinstance(node, cst.Name) and node.value == param.name.value:
                parent = self._parent(node)
                if isinstance(parent, cst.Attribute) and parent.attr is node:
                    continue  # `self.val`: another name
                if isinstance(parent, (cst.AssignTarget, cst.AugAssign)):
                    return []
                reads.append(node)
            stack.extend(node.children)
        return reads

    def _assigned(
        self,
        statement: cst.Assign | cst.AnnAssign,
        depth: int,
        casts: list[tuple[int, str]],
        seen: set[cst.CSTNode],
    ) -> bool:
        if isinstance(statement, cst.Assign):
            if len(statement.targets) != 1:
                return False
            target = statement.targets[0].target
        else:
            target = statement.target
        if not isinstance(target, cst.Name):
            return False  # an attribute, a subscript, unpacking: out of sight
        scope = self.owner.get_metadata(ScopeProvider, target, None)
        if scope is None:
            return False
        assignment = next(
            (a for a in scope.assignments[target.value] if getattr(a, "node", None) is target),
            None,
        )
        if assignment is None:
            return False
        reads = [access.node for access in assignment.references]
        return bool(reads) and all(
            isinstance(read, cst.Name) and self._flows(read, depth, casts, seen) for read in reads
        )

    def _returned(
        self, statement: cst.Return, depth: int, casts: list[tuple[int, str]], seen: set
    ) -> bool:
        """A module-level function returns it: every use of the function in the module must be a
        call (directly, or through a variable bound to the function) whose result is proven."""
        function: cst.CSTNode | None = statement
        while function is not None and not isinstance(function, (cst.FunctionDef, cst.Lambda)):
            function = self._parent(function)
        if not isinstance(function, cst.FunctionDef) or not isinstance(
            self._parent(function), cst.Module
        ):
            return False
        calls = self._calls_of(function.name, depth)
        return bool(calls) and all(self._flows(call, depth, casts, seen) for call in calls)

    def _calls_of(self, name: cst.Name, depth: int) -> list[cst.Call]:
        """The calls of the function ``name`` binds, through variables it is assigned to; empty
        when it is used any other way."""
        scope = self.owner.get_metadata(ScopeProvider, name, None)
        if scope is None or depth > _MAX_DEPTH:
            return []
        assignment = next(
            (a for a in scope.assignments[name.value] if getattr(a, "node", None) is not None),
            None,
        )
        if assignment is None or len(scope.assignments[name.value]) != 1:
            return []
        calls: list[cst.Call] = []
        for access in assignment.references:
            read = access.node
            parent = self._parent(read)
            if isinstance(parent, cst.Call) and parent.func is read:
                calls.append(parent)
                continue
            target = None
            if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
                target = parent.targets[0].target
            if not isinstance(target, cst.Name):
                return []
            found = self._calls_through(target, depth + 1)
            if not found:
                return []
            calls += found
        return calls

    def _calls_through(self, target: cst.Name, depth: int) -> list[cst.Call]:
        """`fn = schedule` (possibly in several branches): the calls of `fn`."""
        scope = self.owner.get_metadata(ScopeProvider, target, None)
        if scope is None:
            return []
        calls: list[cst.Call] = []
        for assignment in scope.assignments[target.value]:
            for access in assignment.references:
                read = access.node
                parent = self._parent(read)
                if not (isinstance(parent, cst.Call) and parent.func is read):
                    return []
                if parent not in calls:
                    calls.append(parent)
        return calls
