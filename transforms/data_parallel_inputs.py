"""What a DDP model is fed, where `device_ids` is dropped (TRN144).

`DDP(model, device_ids=[rank])` moves every tensor of its inputs to the GPU before the forward
pass; the XLA form takes no `device_ids` and moves nothing. Dropping them is correct only where
each input the step feeds is moved to the device by the code itself (pytorch/examples
`distributed/ddp/example.py` feeds `torch.randn(20, 10)`, made on the CPU, and relied on DDP).
The plan follows the DDP model to its calls (a variable, `self.model` in its class, a function
of the module it is passed to) and each argument back to where it is made (the statements before
the call, a parameter's callers in the module): moved (`.to(...)`, `.cuda()`, `device=`), made
on the CPU as a tensor (a torch factory: moved in the same change, as DDP did), or out of sight
(a batch from a loader, a call, a parameter with no callers here), which keeps `device_ids` and
reports. Two calls are on the device too: a forward call of one of the module's DDP models (its
output is on the model's device: StyleGAN2's discriminator fed `generator(noise)`), and a call
of the program's function whose every returned tensor is made on the device a parameter gives
(`mixing_noise(..., device)` → `torch.randn(..., device=device)`, ``ModuleView.device_returns``),
given a device other than the CPU.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import ParentNodeProvider, PositionProvider, ScopeProvider
from trncodemod.transforms.device import device_tables

from trncodemod.analysis.device_parameters import TENSOR_FACTORIES
from trncodemod.analysis.loops import dotted

if TYPE_CHECKING:
    from trncodemod.passes import Pass

# torch functions that make a tensor on the CPU unless given `device=`, and those that build one
# on the CPU from host data or CPU tensors.
_FACTORIES = TENSOR_FACTORIES | {"torch.from_numpy", "torch.stack", "torch.cat"}
_DTYPES = frozenset(
    f"torch.{name}"
    for name in ("float32", "float", "float16", "half", "bfloat16", "float64", "double", "long")
)
# Calls given the model that never run its forward pass: wrappers of the same module (another
# branch's DDP), and questions about it.
_NOT_FEEDING = frozenset(
    {
        "torch.nn.parallel.DistributedDataParallel",
        "torch.nn.parallel.distributed.DistributedDataParallel",
        "torch.nn.DataParallel",
        "torch.nn.parallel.DataParallel",
        "builtins.hasattr",
        "builtins.isinstance",
        "builtins.getattr",
        "builtins.print",
        "builtins.type",
        "builtins.id",
    }
)
# Loaders whose batches are on the XLA device: each tensor of a batch is moved before the loop
# body sees it (torch_xla/distributed/parallel_loader.py at v2.9.0, `MpDeviceLoader.__iter__`).
_DEVICE_LOADERS = frozenset(
    {
        "torch_xla.distributed.parallel_loader.MpDeviceLoader",
        "torch_xla.distributed.parallel_loader.ParallelLoader",
    }
)
# Wrappers of an iterable that hand on its items (with a count for `enumerate`).
_PASS_THROUGH = frozenset({"builtins.enumerate", "tqdm.tqdm", "tqdm.auto.tqdm"})
# Containers built from a comprehension: their items are where the comprehension's are.
_CONTAINERS = frozenset({"builtins.tuple", "builtins.list"})
# Tensor methods whose result is on the host (or no tensor).
_TO_HOST = frozenset({"cpu", "numpy", "tolist", "item"})
_MAX_DEPTH = 8
MOVED, CPU, UNKNOWN = "moved", "cpu", "unknown"


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


@dataclass
class InputPlan:
    """For one DDP construction: the CPU-made tensors to move with `.to(device)` at its calls,
    or why an input may stay on the CPU."""

    moves: list[cst.BaseExpression] = field(default_factory=list)
    blocked: str | None = None
    calls: int = 0  # forward calls of the DDP model found


class DdpInputs:
    def __init__(self, owner: Pass, models: list[cst.Call]) -> None:
        self.owner = owner
        self._wrapped: cst.Call | None = None  # the DDP construction being planned
        self._models = models  # every DDP construction of the module
        self._outputs: set[int] | None = None  # ids of their forward calls

    def _parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.owner.get_metadata(ParentNodeProvider, node, None)

    def _line(self, node: cst.CSTNode) -> int:
        return self.owner.get_metadata(PositionProvider, node).start.line

    def _place(self, node: cst.CSTNode) -> tuple[int, int]:
        start = self.owner.get_metadata(PositionProvider, node).start
        return start.line, start.column

    # -- the DDP model's calls -------------------------------------------------------------------
    def plan(self, ddp: cst.Call) -> InputPlan:
        plan = InputPlan()
        calls = self._forward_calls(ddp, plan)
        plan.calls = len(calls)
        for call in calls:
            for arg in call.args:
                if plan.blocked is not None:
                    return plan
                if arg.star == "**" and self._moved_mapping(arg.value, 0):
                    continue
                if arg.star:
                    plan.blocked = f"`{_code(call)}` (line {self._line(call)}) unpacks its inputs"
                    continue
                self._classify_input(arg.value, plan, 0)
        return plan

    def forward_calls(self, construction: cst.Call) -> tuple[list[cst.Call], str | None]:
        """The forward calls of the model ``construction`` builds (`nn.DataParallel(m).cuda()`
        bound to a variable), and why the tool cannot see them all (None where it can)."""
        plan = InputPlan()
        calls = self._forward_calls(construction, plan)
        return calls, plan.blocked

    def kind(self, value: cst.BaseExpression) -> tuple[str, cst.BaseExpression]:
        """MOVED, CPU (made on the CPU by a torch factory) or UNKNOWN, and the expression that
        decided it."""
        return self._kind(value, 0)

    def rebinds(self, statement: cst.CSTNode, name: str) -> bool:
        """Whether ``statement`` (a block, a loop's body) binds ``name`` anywhere in it."""
        return self._bound_in(statement, name) is not _NOT_BOUND

    def _forward_calls(self, construction: cst.Call, plan: InputPlan) -> list[cst.Call]:
        statement = self._parent(construction)
        if not (
            isinstance(statement, cst.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0].target, (cst.Name, cst.Attribute))
        ):
            plan.blocked = "the DDP model is not bound to a variable the tool can follow"
            return []
        self._wrapped = construction
        return self._calls_of(statement.targets[0].target, plan, 0)

    def _classify_input(self, value: cst.BaseExpression, plan: InputPlan, depth: int) -> None:
        kind, where = self._kind(value, depth)
        if kind == CPU:
            plan.moves.append(value)
        elif kind == UNKNOWN:
            plan.blocked = f"`{_code(where)}` (line {self._line(where)}) may be on the CPU"

    def _calls_of(self, holder: cst.BaseExpression, plan: InputPlan, depth: int) -> list[cst.Call]:
        """The forward calls of the DDP model ``holder`` names (a variable, `self.x`)."""
        reads = self._reads_of(holder)
        if reads is None:
            plan.blocked = f"the tool cannot follow `{_code(holder)}`"
            return []
        calls: list[cst.Call] = []
        for read in reads:
            parent = self._parent(read)
            while isinstance(parent, cst.IfExp) and parent.test is not read:
                read, parent = parent, self._parent(parent)  # `m.module if wrapped else m`
            if isinstance(parent, cst.Assign) and parent.value is read:
                if len(parent.targets) != 1 or not isinstance(parent.targets[0].target, cst.Name):
                    plan.blocked = f"the DDP model is stored at line {self._line(read)}"
                    return []
                calls += self._calls_of(parent.targets[0].target, plan, depth + 1)
                continue
            if isinstance(parent, cst.Call) and parent.func is read:
                calls.append(parent)
            elif self._forward_call(read, parent) is not None:
                calls.append(self._forward_call(read, parent))  # type: ignore[arg-type]
            elif isinstance(parent, cst.Attribute) and parent.value is read:
                continue  # `model.parameters()`, `model.module`, `model.train()`
            elif isinstance(parent, cst.Arg) and parent.value is read:
                call = self._parent(parent)
                if call is self._wrapped or (
                    isinstance(call, cst.Call) and self.owner.is_any(call.func, _NOT_FEEDING)
                ):
                    continue  # `model = DDP(model, ...)`, `hasattr(model, "module")`
                param = self._parameter_for(call, parent) if isinstance(call, cst.Call) else None
                if param is None or depth >= _MAX_DEPTH:
                    what = _code(call.func) if isinstance(call, cst.Call) else "a call"
                    plan.blocked = (
                        f"the DDP model is passed to `{what}(...)` (line {self._line(read)}), "
                        "where the tool does not see what it is fed"
                    )
                    return []
                calls += self._calls_of(param.name, plan, depth + 1)
            elif not isinstance(parent, (cst.AssignTarget, cst.Comparison, cst.ComparisonTarget)):
                plan.blocked = (
                    f"the DDP model `{_code(read)}` is used at line {self._line(read)} where the "
                    "tool does not see what it is fed"
                )
                return []
        return calls

    def _forward_call(self, read: cst.CSTNode, parent: cst.CSTNode | None) -> cst.Call | None:
        """`model.forward(x)`: DDP's own `forward` (it moves the inputs as `model(x)` does, torch
        2.9 `DistributedDataParallel.forward` → `_pre_forward`), a call of the model."""
        if not (
            isinstance(parent, cst.Attribute)
            and parent.value is read
            and parent.attr.value == "forward"
        ):
            return None
        call = self._parent(parent)
        return call if isinstance(call, cst.Call) and call.func is parent else None

    def _reads_of(self, holder: cst.BaseExpression) -> list[cst.CSTNode] | None:
        owner = self.owner
        if isinstance(holder, cst.Name):
            scope = owner.get_metadata(ScopeProvider, holder, None)
            if scope is None:
                return None
            reads = [
                access.node
                for assignment in scope.assignments[holder.value]
                for access in assignment.references
                if not self._before(access.node, holder)
            ]
            # LibCST keeps references in a set: in file order, so the read a message names is
            # the same on every run.
            return sorted(reads, key=self._place)
        # `self.model = DDP(...)` in a method: `self.model` read in the methods of its class.
        if not (isinstance(holder.value, cst.Name) and holder.value.value == "self"):  # type: ignore[attr-defined]
            return None
        owner_class: cst.CSTNode | None = holder
        while owner_class is not None and not isinstance(owner_class, cst.ClassDef):
            owner_class = self._parent(owner_class)
        if owner_class is None:
            return None
        attribute = holder.attr.value  # type: ignore[attr-defined]
        reads: list[cst.CSTNode] = []
        stack: list[cst.CSTNode] = [owner_class]
        while stack:
            node = stack.pop()
            if (
                isinstance(node, cst.Attribute)
                and node.attr.value == attribute
                and isinstance(node.value, cst.Name)
                and node.value.value == "self"
                and node is not holder
            ):
                reads.append(node)
                continue
            stack.extend(node.children)
        return reads

    def _before(self, read: cst.CSTNode, holder: cst.CSTNode) -> bool:
        """``read`` runs before ``holder`` is bound, never after: it comes earlier in the file,
        no loop holds both, and it is not in a function the binding is outside of (one defined
        above runs when called: stylegan2's `fid.py` reads the global `g` in a function above
        `g = nn.DataParallel(g)`). nanoGPT's `model = torch.compile(model)` above `model =
        DDP(model, ...)` reads the model before it is wrapped."""
        if self._line(read) >= self._line(holder):
            return False
        around = []  # the loops and functions that hold the binding
        node = self._parent(holder)
        while node is not None:
            if isinstance(node, cst.For | cst.While | cst.FunctionDef):
                around.append(node)
            node = self._parent(node)
        node = self._parent(read)
        while node is not None:
            if any(node is outer for outer in around):
                return isinstance(node, cst.FunctionDef)  # in order in one function, not a loop
            if isinstance(node, cst.FunctionDef):
                return False  # a function defined above runs when it is called, after the wrap
            node = self._parent(node)
        return True

    # -- a parameter and its callers ---------------------------------------------------------------
    def _function_def(self, func: cst.BaseExpression) -> tuple[cst.FunctionDef, int] | None:
        """The function a call names, in this module, with the positional offset of its
        arguments (1 for `self.method(...)`)."""
        if isinstance(func, cst.Name):
            scope = self.owner.get_metadata(ScopeProvider, func, None)
            bound = [getattr(a, "node", None) for a in scope[func.value]] if scope else []
            if len(bound) == 1 and isinstance(bound[0], cst.FunctionDef):
                return bound[0], 0
            return None
        if not (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Name)
            and func.value.value == "self"
        ):
            return None
        cls: cst.CSTNode | None = func
        while cls is not None and not isinstance(cls, cst.ClassDef):
            cls = self._parent(cls)
        if cls is None:
            return None
        for statement in cls.body.body:  # type: ignore[attr-defined]
            if isinstance(statement, cst.FunctionDef) and statement.name.value == func.attr.value:
                return statement, 1
        return None

    def _parameter_for(self, call: cst.Call, arg: cst.Arg) -> cst.Param | None:
        found = self._function_def(call.func)
        if found is None:
            return None
        function, offset = found
        params = function.params
        plain = [*params.posonly_params, *params.params]
        if arg.keyword is not None:
            every = [*plain, *params.kwonly_params]
            return next((p for p in every if p.name.value == arg.keyword.value), None)
        index = [a for a in call.args if a.keyword is None].index(arg) + offset
        return plain[index] if index < len(plain) else None

    def _callers_args(self, function: cst.FunctionDef, param: cst.Param) -> list[cst.Arg] | None:
        """The arguments every call of ``function`` in this module passes for ``param``; None
        when one call passes none the tool can pair with it, or there is no call."""
        module: cst.CSTNode | None = function
        while module is not None and not isinstance(module, cst.Module):
            module = self._parent(module)
        if module is None:
            return None
        found: list[cst.Arg] = []
        stack: list[cst.CSTNode] = [module]
        while stack:
            node = stack.pop()
            stack.extend(node.children)
            if not isinstance(node, cst.Call):
                continue
            target = self._function_def(node.func)
            if target is None or target[0] is not function:
                continue
            if any(a.star for a in node.args):
                return None
            paired = next((a for a in node.args if self._parameter_for(node, a) is param), None)
            if paired is None:
                return None
            found.append(paired)
        return found or None

    # -- where an input comes from -----------------------------------------------------------------
    def _kind(self, value: cst.BaseExpression, depth: int) -> tuple[str, cst.BaseExpression]:
        """MOVED, CPU (a tensor made on the CPU: movable) or UNKNOWN, and the expression that
        decided it."""
        owner = self.owner
        if depth > _MAX_DEPTH:
            return UNKNOWN, value
        if isinstance(value, (cst.Integer, cst.Float, cst.SimpleString)) or (
            isinstance(value, cst.Name) and value.value in ("True", "False", "None")
        ):
            return MOVED, value  # not a tensor: nothing to move
        if isinstance(value, cst.Call):
            func = value.func
            if isinstance(func, cst.Attribute) and func.attr.value in ("to", "cuda"):
                if func.attr.value == "cuda" or self._moves(value):
                    return MOVED, value
                return self._kind(func.value, depth + 1)
            if owner.is_any(func, _FACTORIES):
                if any(a.keyword and a.keyword.value == "device" for a in value.args):
                    return MOVED, value
                return CPU, value
            if self._device_loader(value, depth + 1):
                return MOVED, value  # an item of its batches (what `for` hands on)
            if (
                owner.is_any(func, _CONTAINERS)
                and len(value.args) == 1
                and isinstance(value.args[0].value, cst.ListComp | cst.GeneratorExp)
            ):
                # `tuple(t.to(device) for t in batch)`: where each item is.
                kind, where = self._kind(value.args[0].value, depth + 1)
                return (MOVED, value) if kind == MOVED else (UNKNOWN, where)
            if id(value) in self._model_outputs():
                return MOVED, value  # a DDP model's output: on the model's device
            if self._made_on_given_device(value):
                return MOVED, value
            if (
                isinstance(func, cst.Attribute)
                and func.attr.value not in _TO_HOST
                and self._kind(func.value, depth + 1)[0] == MOVED
            ):
                return MOVED, value  # a method of a tensor on the device (`fake.flip(0)`)
            return UNKNOWN, value
        if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name):
            if self._moved_mapping(value.value, depth + 1):
                return MOVED, value
            if self._kind(value.value, depth + 1)[0] == MOVED:
                return MOVED, value  # an item of moved tensors (`batch[0]`)
            return UNKNOWN, value
        if isinstance(value, cst.List | cst.Tuple) and not any(
            isinstance(e, cst.StarredElement) for e in value.elements
        ):
            # `g([latent])`: DDP and DataParallel move the tensors of a list or tuple, as the
            # code does where each is on the device.
            kinds = [self._kind(e.value, depth + 1) for e in value.elements]
            unmoved = next((k for k in kinds if k[0] != MOVED), None)
            return (MOVED, value) if unmoved is None else (UNKNOWN, unmoved[1])
        if isinstance(value, cst.ListComp | cst.GeneratorExp):
            # `[t.to(device) for t in batch]`: on the device where each item is; a list of CPU
            # tensors has no `.to()` to add.
            kind, where = self._kind(value.elt, depth + 1)
            return (MOVED, value) if kind == MOVED else (UNKNOWN, where)
        if isinstance(value, cst.Name):
            return self._kind_bound(value, self._binding_before(value), depth)
        return UNKNOWN, value

    def _kind_bound(
        self, value: cst.Name, bound: object, depth: int
    ) -> tuple[str, cst.BaseExpression]:
        """The kind of the name ``value`` read where it was last bound to ``bound``."""
        if isinstance(bound, _Branches):
            kinds = [self._kind_bound(value, each, depth + 1) for each in bound.values]
            blocked = next((k for k in kinds if k[0] == UNKNOWN), None)
            if blocked is not None:
                return blocked
            return (CPU if any(k[0] == CPU for k in kinds) else MOVED), value
        if bound is None or depth > _MAX_DEPTH:
            return UNKNOWN, value
        if isinstance(bound, cst.Param):
            function: cst.CSTNode | None = bound
            while function is not None and not isinstance(function, cst.FunctionDef):
                function = self._parent(function)
            args = (
                self._callers_args(function, bound)
                if isinstance(function, cst.FunctionDef)
                else None
            )
            if not args:
                return UNKNOWN, value
            kinds = [self._kind(arg.value, depth + 1) for arg in args]
            blocked = next((k for k in kinds if k[0] != MOVED), None)
            return (UNKNOWN, blocked[1]) if blocked else (MOVED, value)
        kind, where = self._kind(bound, depth + 1)
        # A CPU tensor bound to a name is moved at the call, where DDP moved it.
        return kind, where if kind == UNKNOWN else value

    def _model_outputs(self) -> set[int]:
        """The forward calls of the module's DDP models (`fake_img, _ = generator(noise)`): what
        they return is on the model's device, where DDP would have moved it."""
        if self._outputs is None:
            self._outputs = set()
            wrapped = self._wrapped
            for ddp in self._models:
                statement = self._parent(ddp)
                if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
                    self._wrapped = ddp
                    holder = statement.targets[0].target
                    self._outputs |= {id(c) for c in self._calls_of(holder, InputPlan(), 0)}
            self._wrapped = wrapped
        return self._outputs

    def _made_on_given_device(self, call: cst.Call) -> bool:
        """A call of the program's function whose every returned tensor is made on the device a
        parameter gives (``ModuleView.device_returns``: `mixing_noise(..., device)` →
        `torch.randn(..., device=device)`), given a device other than the CPU."""
        name = dotted(call.func)
        params = (
            device_tables(self.owner.run.program, self.owner._wrapper.module).device_returns.get(
                name
            )
            if name
            else None
        )
        if not params or any(a.star for a in call.args):
            return False
        positional = [a for a in call.args if a.keyword is None]
        for param, position in params:
            arg = next((a for a in call.args if a.keyword and a.keyword.value == param), None)
            if arg is None and 0 <= position < len(positional):
                arg = positional[position]
            if arg is None:
                continue  # the parameter's default: not known here
            value = arg.value
            if isinstance(value, cst.Name) and value.value != "None":
                bound = self._binding_before(value)  # `cpu = "cpu"` or `torch.device("cpu")`
                value = bound if isinstance(bound, cst.BaseExpression) else value
            if isinstance(value, cst.Call) and self.owner.is_any(value.func, {"torch.device"}):
                value = value.args[0].value if value.args else value
            if isinstance(value, cst.SimpleString):
                return value.evaluated_value not in ("cpu", b"cpu")
            return not (isinstance(value, cst.Name) and value.value == "None")
        return False

    def _moves(self, call: cst.Call) -> bool:
        """`.to(...)` given a device, not only a dtype."""
        for arg in call.args:
            if arg.keyword is not None:
                if arg.keyword.value == "device":
                    return True
                continue
            if not self.owner.is_any(arg.value, _DTYPES):
                return True
        return False

    def _device_loader(self, value: cst.BaseExpression, depth: int) -> bool:
        """An MpDeviceLoader (`pl.MpDeviceLoader(loader, device)`, a ParallelLoader's
        `per_device_loader(device)`), also through `enumerate`/`tqdm` (their other items are
        counts, not tensors) or a name bound to one before the loop."""
        if depth > _MAX_DEPTH:
            return False
        if isinstance(value, cst.Name):
            bound = self._binding_before(value)
            return isinstance(bound, cst.BaseExpression) and self._device_loader(bound, depth + 1)
        if not isinstance(value, cst.Call):
            return False
        func = value.func
        if self.owner.is_any(func, _DEVICE_LOADERS):
            return True
        if isinstance(func, cst.Attribute) and func.attr.value == "per_device_loader":
            return self._device_loader(func.value, depth + 1)
        if self.owner.is_any(func, _PASS_THROUGH) and value.args and not value.args[0].keyword:
            return self._device_loader(value.args[0].value, depth + 1)
        return False

    def _moved_mapping(self, value: cst.BaseExpression, depth: int) -> bool:
        """A dict of moved tensors: `{k: v.to(device) for k, v in batch.items()}`."""
        if isinstance(value, cst.Name) and depth <= _MAX_DEPTH:
            bound = self._binding_before(value)
            return isinstance(bound, cst.BaseExpression) and self._moved_mapping(bound, depth + 1)
        return (
            isinstance(value, cst.DictComp)
            and isinstance(value.value, cst.Call)
            and self._kind(value.value, depth + 1)[0] == MOVED
            and isinstance(value.value.func, cst.Attribute)
        )

    def _binding_before(self, name: cst.Name, start: cst.CSTNode | None = None) -> object:
        """The value ``name`` was last bound to before it is read (or before the statement
        ``start``), in the statements that run before the read in its function (or a parameter
        of that function, or the ``_Branches`` of an `if` that binds it); None where a binding
        between them is out of reach (a loop target, a nested branch, unpacking of a call)."""
        node: cst.CSTNode = start or name
        while True:
            parent = self._parent(node)
            if parent is None:
                return None
            if isinstance(parent, cst.FunctionDef):
                params = parent.params
                every = [*params.posonly_params, *params.params, *params.kwonly_params]
                return next((p for p in every if p.name.value == name.value), None)
            if isinstance(parent, (cst.For, cst.CompFor)) and _binds(parent.target, name.value):
                if isinstance(parent, cst.For) and self._device_loader(parent.iter, 0):
                    return parent.iter  # a batch of an MpDeviceLoader: on the device
                return None  # a loop target: one batch after another
            if isinstance(parent, (cst.For, cst.While)) and (
                self._bound_in(parent.body, name.value) is not _NOT_BOUND
            ):
                return None  # bound later in the loop: the previous iteration's value
            if isinstance(parent, (cst.IndentedBlock, cst.Module)):
                body = list(parent.body)
                index = next(i for i, s in enumerate(body) if s is node)
                for statement in reversed(body[:index]):
                    bound = self._bound_in(statement, name.value)
                    if bound is None and isinstance(statement, cst.If):
                        return self._branches(statement, name)
                    if bound is not _NOT_BOUND:
                        return bound
            if isinstance(parent, (cst.ClassDef, cst.Lambda)):
                return None
            node = parent

    def _branches(self, statement: cst.If, name: cst.Name) -> _Branches | None:
        """What each branch of ``statement`` leaves ``name`` bound to (`if args.augment:
        fake_img, _ = augment(fake_img, p)`); None where one binds it out of reach."""
        values: list[object] = []
        branch: cst.CSTNode | None = statement
        while isinstance(branch, cst.If | cst.Else):
            last = _NOT_BOUND
            for inner in reversed(list(branch.body.body)):
                last = self._bound_in(inner, name.value)
                if last is not _NOT_BOUND:
                    break
            if last is None:
                return None
            values.append(last)
            branch = branch.orelse if isinstance(branch, cst.If) else None
        if not _ends_in_else(statement):
            values.append(_NOT_BOUND)  # no branch runs
        if _NOT_BOUND in values:
            before = self._binding_before(name, statement)
            values = [before if v is _NOT_BOUND else v for v in values]
        return _Branches(tuple(values))

    def _bound_in(self, statement: cst.CSTNode, name: str) -> object:
        """What ``statement`` binds ``name`` to: a value, None (bound out of reach), or
        _NOT_BOUND."""
        if isinstance(statement, cst.SimpleStatementLine):
            result: object = _NOT_BOUND
            for small in statement.body:
                if isinstance(small, cst.Assign):
                    for target in small.targets:
                        value = _paired(target.target, small.value, name)
                        if value is not _NOT_BOUND:
                            result = value
                elif isinstance(small, (cst.AugAssign, cst.AnnAssign)) and _binds(
                    small.target, name
                ):
                    result = small.value if isinstance(small, cst.AnnAssign) else None
            return result
        # A compound statement that binds it anywhere inside: which binding ran is not certain.
        stack: list[cst.CSTNode] = [statement]
        while stack:
            node = stack.pop()
            if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                continue
            if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.For, cst.WithItem)) and (
                _binds(getattr(node, "target", None) or getattr(node, "asname", None), name)
            ):
                return None
            stack.extend(node.children)
        return _NOT_BOUND


_NOT_BOUND = object()


@dataclass(frozen=True)
class _Branches:
    """A name an `if` binds: the value each branch leaves it (the value before the `if` for a
    branch that does not bind it), one of which holds at the read."""

    values: tuple[object, ...]


def _ends_in_else(statement: cst.If) -> bool:
    """Whether one branch of the `if`/`elif` chain always runs."""
    orelse = statement.orelse
    while isinstance(orelse, cst.If):
        orelse = orelse.orelse
    return isinstance(orelse, cst.Else)


def _binds(target: cst.CSTNode | None, name: str) -> bool:
    if isinstance(target, cst.AsName):
        target = target.name
    if isinstance(target, cst.Name):
        return target.value == name
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(_binds(element.value, name) for element in target.elements)
    return False


def _paired(target: cst.BaseExpression, value: cst.BaseExpression, name: str) -> object:
    """The value ``target = value`` gives ``name``: `x = v`, `x, y = a, b`; None where it binds
    it from unpacking the tool cannot pair; _NOT_BOUND where it does not bind it."""
    if isinstance(target, cst.Name):
        return value if target.value == name else _NOT_BOUND
    if isinstance(target, (cst.Tuple, cst.List)):
        if not _binds(target, name):
            return _NOT_BOUND
        if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(target.elements):
            for element, source in zip(target.elements, value.elements, strict=True):
                paired = _paired(element.value, source.value, name)
                if paired is not _NOT_BOUND:
                    return paired
        if isinstance(value, cst.Call | cst.Name) and all(
            isinstance(e.value, cst.Name) for e in target.elements
        ):
            # `fake_img, _ = generator(noise)`, `input_ids, mask = batch`: an item of what is
            # unpacked lives where the whole does (a model's output, a tensor made on a device,
            # a tuple of moved tensors, or one to move at the call, as the whole would be).
            return value
        return None
    return _NOT_BOUND
