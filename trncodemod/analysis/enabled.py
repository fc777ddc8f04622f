"""What a rewritten condition turns on, and whether all of it can run on the target.

A pass that makes a condition true on the target (``torch.cuda.is_available()`` → ``True``,
``device.type == "cuda"`` → ``== "xla"``) also runs everything that condition guards, which
never ran on a CPU or under torch-xla before: a pinned-memory copy, ``AdamW(fused=True)``,
``torch.accelerator.device_count()`` sizing ``mp.spawn``. The rewrite owns those lines: each must
be valid on the target as it stands or be rewritten by its own rule in the same run, else the
condition is left as it was (issue 23, item 1).

``newly_run`` follows the condition to what it decides: the ``if``/``while`` branch or the
conditional expression it picks, a keyword (``fused=use_cuda``) or dict entry (``{"fused": ...}``)
it sets, through ``not``/``and``/``or`` and names it is assigned to (read in the same function, or
``self.x`` in the same class). ``blocker`` names the first thing there the target cannot run that no
selected rule rewrites. Facts: [measured-cuda-calls] (CUDA calls, pinned memory, measured),
[measured-device-checks] (``torch.accelerator`` under torch-xla), and TRN111 (``fused=True`` raises
on XLA tensors).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import libcst as cst
from libcst.metadata import ParentNodeProvider

from trncodemod.analysis.cuda_kernels import cudnn_op, is_cuda_build
from trncodemod.analysis.cuda_libraries import cuda_library
from trncodemod.analysis.device import identity_subject, is_cuda_string
from trncodemod.analysis.loops import dotted
from trncodemod.analysis.nodes import children, walk

Qualified = Callable[[cst.CSTNode], set[str]]

_DEPTH = 4  # names followed through names: `use_fused = fused_available and use_cuda`
# Options that need CUDA (or raise on XLA tensors) when they are set true.
_CUDA_OPTIONS = frozenset({"fused", "capturable", "pin_memory", "pin_memory_device"})
_PIN_OPTIONS = frozenset({"pin_memory", "pin_memory_device"})
_DATA_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
#  torch.accelerator under torch-xla is not the XLA device ([measured-device-checks]): these raise
# or count 0.
_ACCELERATOR_HARMLESS = frozenset(
    {
        "torch.accelerator.is_available",  # False: what it guards stays off
        "torch.accelerator.device_index",  # a context manager: constructing one does nothing
    }
)
_FP8_ROOTS = ("transformer_engine", "torchao.float8")
# A project's own fp8 module (nanochat's `nanochat.fp8`, `convert_to_float8_training`): the
# name says what it is; its code runs torch._scaled_mm, a CUDA kernel.
_FP8_NAME = re.compile(r"(^|[._])(fp8|float8)([._]|$)", re.IGNORECASE)
_PROCESS_GROUP = frozenset(
    {
        "torch.distributed.init_process_group",
        "torch.distributed.distributed_c10d.init_process_group",
    }
)
# What places a computation on a device: a condition that turns none of these on decides no
# device (timm's `is_cuda` picks a CUDA prefetch stream; the batches still go to self.device).
_DEVICE_CALLS = frozenset(
    {"torch.device", "torch.accelerator.current_accelerator", "torch.cuda.current_device"}
)
_DEVICE_METHODS = frozenset({"to", "cuda"})


@dataclass(frozen=True)
class Fixes:
    """What rewrites the rest of the run makes, for the code a condition turns on: the rule
    codes selected, the target, and the device pass's own answer for the device calls it
    rewrites or reports (``.cuda(...)``, ``torch.device(...)``, ``current_accelerator()``):
    why one cannot run, or None."""

    enabled: frozenset[str]
    is_xla: bool
    device_call: Callable[[cst.Call], str | None]
    cuda_table: Mapping[str, object]  # cuda_calls.toml's calls (name -> CudaCall)


def _parent_chain(
    node: cst.CSTNode, parents: Mapping[cst.CSTNode, cst.CSTNode]
) -> Iterable[tuple[cst.CSTNode, cst.CSTNode]]:
    child = node
    parent = parents.get(child)
    while parent is not None:
        yield child, parent
        child, parent = parent, parents.get(parent)


def _key(element: cst.DictElement) -> str | None:
    key = element.key
    if isinstance(key, cst.SimpleString):
        value = key.evaluated_value
        return value if isinstance(value, str) else None
    return None


def reads(
    target: cst.BaseAssignTargetExpression, parents: Mapping[cst.CSTNode, cst.CSTNode]
) -> list[cst.BaseExpression]:
    """The reads of an assigned name: a plain name in its function (or module), ``self.x`` in
    its class."""
    name = dotted(target)
    if name is None:
        return []
    want_class = name.startswith("self.")
    scope: cst.CSTNode | None = None
    for _child, parent in _parent_chain(target, parents):
        if want_class and isinstance(parent, cst.ClassDef):
            scope = parent
            break
        if not want_class and isinstance(parent, cst.FunctionDef | cst.Module):
            scope = parent
            break
    if scope is None:
        return []
    reads = []
    kinds = (cst.Attribute,) if want_class else (cst.Name,)
    for node in walk(scope):
        if node is target or not isinstance(node, kinds) or dotted(node) != name:  # type: ignore[arg-type]
            continue
        parent = parents.get(node)
        if isinstance(parent, cst.Arg) and parent.keyword is node:
            continue  # `f(use_cuda=...)`: a keyword's name
        if isinstance(parent, cst.AssignTarget | cst.Param | cst.Attribute):
            if not (isinstance(parent, cst.Attribute) and parent.attr is not node):
                continue  # a binding, or the attribute name of `obj.x`
        reads.append(node)
    return reads


def _leaves(body: cst.BaseSuite) -> bool:
    """The block ends by leaving the code after it (``return``, ``raise``, ``continue``,
    ``break``)."""
    statements = body.body if isinstance(body, cst.IndentedBlock) else [body]
    last = statements[-1] if statements else None
    small = (
        last.body if isinstance(last, cst.SimpleStatementLine | cst.SimpleStatementSuite) else []
    )
    return bool(small) and isinstance(small[-1], cst.Return | cst.Raise | cst.Continue | cst.Break)


def _after(statement: cst.CSTNode, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> list[cst.CSTNode]:
    block = parents.get(statement)
    body = getattr(block, "body", None)
    if not isinstance(body, tuple | list) or statement not in body:
        return []
    return list(body[body.index(statement) + 1 :])


def newly_run(
    condition: cst.BaseExpression, truth: bool, parents: Mapping[cst.CSTNode, cst.CSTNode]
) -> list[cst.CSTNode]:
    """What runs on the target only because ``condition`` now has the value ``truth``: blocks,
    expressions, and the ``Arg``/``DictElement`` whose option it sets."""
    found: list[cst.CSTNode] = []
    seen: set[int] = set()

    def follow(node: cst.BaseExpression, value: bool, depth: int) -> None:
        if id(node) in seen or depth > _DEPTH:
            return
        seen.add(id(node))
        child: cst.CSTNode = node
        for _child, parent in _parent_chain(node, parents):
            if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
                value = not value
            elif isinstance(parent, cst.BooleanOperation):
                pass  # the whole can now take the value the part took
            elif isinstance(parent, cst.If | cst.While) and parent.test is child:
                if value:
                    found.append(parent.body)
                elif isinstance(parent, cst.If) and parent.orelse is not None:
                    found.append(parent.orelse)
                elif isinstance(parent, cst.If) and _leaves(parent.body):
                    found.extend(_after(parent, parents))  # `if not cond: return`, then the rest
                return
            elif isinstance(parent, cst.IfExp) and parent.test is child:
                found.append(parent.body if value else parent.orelse)
                return
            elif isinstance(parent, cst.Arg) and parent.value is child:
                if value and parent.keyword is not None:
                    found.append(parent)
                return
            elif isinstance(parent, cst.DictElement) and parent.value is child:
                if value:
                    found.append(parent)
                return
            elif isinstance(parent, cst.Assign) and parent.value is child:
                for target in parent.targets:
                    for read in reads(target.target, parents):
                        follow(read, value, depth + 1)
                return
            elif isinstance(parent, cst.AnnAssign) and parent.value is child:
                for read in reads(parent.target, parents):
                    follow(read, value, depth + 1)
                return
            elif isinstance(parent, cst.Return) and value:
                found.append(parent)  # what the caller does with it is not followed: kept
                return
            else:
                return  # compared, called, returned: the tool does not follow it further
            child = parent

    follow(condition, truth, 0)
    return found


def blocker(
    region: Iterable[cst.CSTNode],
    qualified: Qualified,
    parents: Mapping[cst.CSTNode, cst.CSTNode],
    fixes: Fixes,
) -> tuple[cst.CSTNode, str] | None:
    """The first node in ``region`` the target cannot run and no selected rule rewrites, with
    why; None when all of it can run."""
    for root in region:
        if isinstance(root, cst.Return):
            return root, "the function returns it, and the tool does not follow what its callers do"
        if isinstance(root, cst.Arg | cst.DictElement):
            why = _option(root, parents, qualified, fixes, set_by_condition=True)
            if why is not None:
                return root, why
            continue
        for node in _own_nodes(root):
            why = _blocks(node, parents, qualified, fixes)
            if why is not None:
                return node, why
    return None


def decides_device(region: Iterable[cst.CSTNode], qualified: Qualified) -> bool:
    """Whether ``region`` places anything on a device: a ``"cuda"`` string, ``torch.device``,
    ``.to(...)``/``.cuda(...)``, or a ``device=`` option outside a CUDA API's own call. A check
    that turns none of these on does not decide where the program trains (timm's ``is_cuda``
    picks a CUDA prefetch stream, the batches still go to the device it is given)."""
    for root in region:
        for node in _own_nodes(root):
            if isinstance(node, cst.SimpleString):
                value = node.evaluated_value
                if isinstance(value, str) and re.fullmatch(r"cuda(:\d+)?", value):
                    return True
            if not isinstance(node, cst.Call):
                continue
            names = qualified(node.func)
            if names & _DEVICE_CALLS:
                return True
            if any(n.startswith("torch.cuda.") for n in names):
                continue  # `torch.cuda.Stream(device=...)`: a CUDA API's own device
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value in _DEVICE_METHODS:
                return True
            if any(a.keyword is not None and a.keyword.value == "device" for a in node.args):
                return True
    return False


def _own_nodes(root: cst.CSTNode) -> Iterable[cst.CSTNode]:
    """The nodes of ``root`` that run with it: not the bodies of functions, classes or lambdas
    it defines."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        if node is not root and isinstance(node, cst.FunctionDef | cst.ClassDef | cst.Lambda):
            continue
        stack.extend(reversed(children(node)))


def _truthy(value: cst.BaseExpression) -> bool:
    return not (isinstance(value, cst.Name) and value.value in ("False", "None"))


def _option(
    node: cst.Arg | cst.DictElement,
    parents: Mapping[cst.CSTNode, cst.CSTNode],
    qualified: Qualified,
    fixes: Fixes,
    set_by_condition: bool,
) -> str | None:
    """Why an option a condition sets (or that is spelt true in the region) cannot run."""
    if isinstance(node, cst.Arg):
        name = node.keyword.value if node.keyword is not None else None
    else:
        name = _key(node)
    if name not in _CUDA_OPTIONS or not (set_by_condition or _truthy(node.value)):
        return None
    call = parents.get(node)
    literal_true = isinstance(node.value, cst.Name) and node.value.value == "True"
    if name in _PIN_OPTIONS:
        # A loader's option (`DataLoader(pin_memory=True)`, or a keyword dict for one: the only
        # place such a key goes) only warns without CUDA and pins nothing ([measured-cuda-calls]);
        # a tensor made in pinned memory (`torch.empty(..., pin_memory=True)`) needs CUDA.
        if isinstance(node, cst.DictElement) or not fixes.is_xla:
            return None
        if isinstance(call, cst.Call) and qualified(call.func) & _DATA_LOADERS:
            return None
        return "pinned memory needs CUDA (a tensor made in it raises on a Trainium host)"
    if not fixes.is_xla:
        return None  # TorchNeuron: torch's own check decides (TRN111 reports fused there)
    optimizer = isinstance(call, cst.Call) and any(
        n.startswith("torch.optim.") for n in qualified(call.func)
    )
    if name == "fused" and optimizer and literal_true and "TRN111" in fixes.enabled:
        return None  # TRN111 removes it
    return f"`{name}=True` raises on XLA tensors (fused and capturable optimizers are CUDA-only)"


def _blocks(
    node: cst.CSTNode,
    parents: Mapping[cst.CSTNode, cst.CSTNode],
    qualified: Qualified,
    fixes: Fixes,
) -> str | None:
    if isinstance(node, cst.Arg | cst.DictElement):
        return _option(node, parents, qualified, fixes, set_by_condition=False)
    if isinstance(node, cst.Assert):
        for call in walk(node.test):
            if isinstance(call, cst.Call) and "torch.cuda.is_available" in qualified(call.func):
                return "`assert torch.cuda.is_available()` fails on a Trainium host"
        return None
    if isinstance(node, cst.Import | cst.ImportFrom):
        return _imports_cuda_only(node)
    if isinstance(node, cst.Attribute | cst.Name):
        names = qualified(node)
        if cudnn_op(node, qualified):
            return "a cuDNN op, which only CUDA tensors reach"
        if any(n.startswith("torch.float8_") or n.startswith(_FP8_ROOTS) for n in names):
            return "fp8 is a CUDA path (Trainium trains in bf16)"
        # A CUDA-only package (data/cuda_libraries.toml): importing or calling it where a
        # flipped condition turns it on raises on a Trainium host.
        if any(cuda_library(n) for n in names):
            return "a CUDA-only package (its kernels do not run on Trainium)"
        return _cuda_reference(node, names, parents)
    if not isinstance(node, cst.Call):
        return None
    if qualified(node.func) & _PROCESS_GROUP:
        return _process_group(node, fixes)
    if is_cuda_build(node, qualified) is not None:
        return "builds a CUDA extension, which needs nvcc and a CUDA toolkit"
    if cudnn_op(node, qualified):
        return "a cuDNN op, which only CUDA tensors reach"
    why = fixes.device_call(node)
    if why is not None:
        return why
    names = qualified(node.func)
    for name in names:
        if name.startswith("torch.cuda."):
            return _cuda_call(name, node, parents, fixes)
        if name.startswith("torch.accelerator.") and fixes.is_xla:
            if name in _ACCELERATOR_HARMLESS:
                return None
            if name in fixes.cuda_table:
                return _cuda_call(name, node, parents, fixes)
            if name == "torch.accelerator.current_accelerator":
                return None  # the device pass's (device_call)
            if name == "torch.accelerator.device_count":
                return "`torch.accelerator.device_count()` is 0 under torch-xla"
            return f"`{name}()` is not the XLA device's API: under torch-xla it raises"
    func = node.func
    if isinstance(func, cst.Attribute) and not any(n.startswith("torch.") for n in names):
        if func.attr.value == "pin_memory" and fixes.is_xla and "TRN314" not in fixes.enabled:
            return "`.pin_memory()` raises without CUDA"
    return None


def _cuda_call(
    name: str, call: cst.Call, parents: Mapping[cst.CSTNode, cst.CSTNode], fixes: Fixes
) -> str | None:
    if name == "torch.cuda.is_available" or name.startswith("torch.cuda.amp."):
        return None  # False on the target / the amp pass's
    entry = fixes.cuda_table.get(name)
    action = getattr(entry, "action", None)
    if action == "wait" and "TRN311" in fixes.enabled:
        return None
    statement = parents.get(call)
    if action == "remove" and "TRN312" in fixes.enabled and isinstance(statement, cst.Expr):
        return None
    if (
        action == "query"
        and not fixes.is_xla
        and getattr(entry, "neuron", "")
        and not call.args
        and "TRN315" in fixes.enabled
    ):
        return None
    if name == "torch.cuda.device_count" and _false_at_zero(call, parents):
        return None  # `if torch.cuda.device_count() > 1:` (DataParallel): skipped at 0
    if name == "torch.cuda.device_count" and _only_printed(call, parents):
        return None  # `print(torch.cuda.device_count())`: prints 0 there, and runs
    why = getattr(entry, "why", "") or "is a CUDA runtime API with no Trainium equivalent"
    return f"`{name}()` {why}"


# A comparison's operator as a function of (left, right).
_COMPARE = {
    cst.GreaterThan: operator.gt,
    cst.GreaterThanEqual: operator.ge,
    cst.Equal: operator.eq,
    cst.NotEqual: operator.ne,
    cst.LessThan: operator.lt,
    cst.LessThanEqual: operator.le,
}


_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "log", "write"})


def _only_printed(call: cst.Call, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> bool:
    """``call``'s value goes only into a message that is printed or logged (`print(...)`,
    `logger.info(f"{...} GPUs")`, `"%d" % ...`): what it returns changes no other line."""
    node: cst.CSTNode = call
    parent = parents.get(node)
    while isinstance(
        parent,
        cst.Arg
        | cst.FormattedStringExpression
        | cst.FormattedString
        | cst.BinaryOperation
        | cst.Tuple
        | cst.Element,
    ):
        node, parent = parent, parents.get(parent)
    if not (isinstance(parent, cst.Call) and isinstance(node, cst.Arg)):
        return False
    func = parent.func
    if isinstance(func, cst.Name):
        return func.value == "print"
    return isinstance(func, cst.Attribute) and func.attr.value in _LOG_METHODS


def _false_at_zero(call: cst.Call, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> bool:
    """``call`` (a device count, 0 on the target) is compared with a number in an ``if``'s
    test (alone, or ``and``-ed) that is False at 0: the count decides only that the branch is
    skipped (`if torch.cuda.device_count() > 1: model = nn.DataParallel(model)`)."""
    comparison = parents.get(call)
    if not (
        isinstance(comparison, cst.Comparison)
        and comparison.left is call
        and len(comparison.comparisons) == 1
        and isinstance(comparison.comparisons[0].comparator, cst.Integer)
    ):
        return False
    target = comparison.comparisons[0]
    compare = _COMPARE.get(type(target.operator))
    if compare is None or compare(0, int(target.comparator.value)):
        return False
    node: cst.CSTNode = comparison
    parent = parents.get(node)
    while isinstance(parent, cst.BooleanOperation) and isinstance(parent.operator, cst.And):
        node, parent = parent, parents.get(parent)
    return isinstance(parent, cst.If | cst.IfExp | cst.While) and parent.test is node


def _imports_cuda_only(node: cst.Import | cst.ImportFrom) -> str | None:
    """``from flash_attn import ...``, ``from nanochat.fp8 import convert_to_float8_training``."""
    if isinstance(node, cst.ImportFrom):
        module = dotted(node.module) if node.module is not None else None
        names = [module or ""]
        if not isinstance(node.names, cst.ImportStar):
            names += [dotted(alias.name) or "" for alias in node.names]
    else:
        names = [dotted(alias.name) or "" for alias in node.names]
    if any(cuda_library(name) for name in names):
        return "a CUDA-only package (its kernels do not run on Trainium)"
    if any(_FP8_NAME.search(name) for name in names):
        return "fp8 is a CUDA path (Trainium trains in bf16)"
    return None


def _cuda_reference(
    node: cst.Attribute | cst.Name, names: set[str], parents: Mapping[cst.CSTNode, cst.CSTNode]
) -> str | None:
    """``torch.cuda.synchronize`` named, not called (``sync = torch.cuda.synchronize if ...``):
    what it is called as later no rule rewrites."""
    parent = parents.get(node)
    if isinstance(parent, cst.Call) and parent.func is node:
        return None  # a call: _cuda_call's
    if isinstance(parent, cst.Attribute) and parent.value is node:
        return None  # part of a longer name
    for name in names:
        if name.startswith("torch.cuda.") and not name.startswith("torch.cuda.amp."):
            return f"`{name}` is a CUDA runtime API, selected here to be called later"
    return None


def _process_group(call: cst.Call, fixes: Fixes) -> str | None:
    """A process group the run makes an XLA one (TRN143: a literal ``"nccl"`` without
    ``device_id=``) or that is one already; any other backend does not start on Trainium."""
    backend = next((a for a in call.args if a.keyword and a.keyword.value == "backend"), None)
    if backend is None and call.args and call.args[0].keyword is None:
        backend = call.args[0]
    value = None
    if backend is not None and isinstance(backend.value, cst.SimpleString):
        value = backend.value.evaluated_value
    if value == "xla" or not fixes.is_xla:
        return None  # TorchNeuron keeps torch.distributed as it is ([torchneuron-overview])
    device_id = any(a.keyword and a.keyword.value == "device_id" for a in call.args)
    if value == "nccl" and not device_id and "TRN143" in fixes.enabled:
        return None
    what = f'backend "{value}"' if isinstance(value, str) else "a backend the tool cannot read"
    return f"a process group with {what}, which the tool does not make an XLA one here"


def is_cuda_availability(node: cst.CSTNode) -> bool:
    """``torch.cuda.is_available()`` as written through any alias of torch or its ``cuda``
    module (``th.cuda.is_available()``, ``cuda.is_available()``)."""
    if not (isinstance(node, cst.Call) and not node.args):
        return False
    func = node.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "is_available"):
        return False
    owner = func.value
    return (isinstance(owner, cst.Name) and owner.value == "cuda") or (
        isinstance(owner, cst.Attribute) and owner.attr.value == "cuda"
    )


def in_cuda_only_block(
    node: cst.CSTNode,
    parent_of: Callable[[cst.CSTNode], cst.CSTNode | None],
    *,
    identity: bool = True,
    availability_stays: Callable[[cst.Call], bool] = lambda call: True,
) -> bool:
    """``node`` runs only where CUDA is there, so never on Trainium, and a change there changes
    only the CUDA run: the block of an ``if`` (or the branch of a conditional expression, or the
    right operand of ``and``) whose test requires the device to be "cuda" once the device pass
    has run (nanochat's `if is_ddp and device_type == "cuda":` kept by TRN046, llm.c's
    `elif device == "cuda":`, timm's `if device.startswith('cuda:'):`), or requires a
    ``torch.cuda.is_available()`` the device pass left as it is (accelerate's
    `if torch.cuda.is_available(): torch.cuda.empty_cache()`); also the right operand of
    `not torch.cuda.is_available() or ...`, which Trainium never evaluates; and a statement
    after an early exit taken without CUDA in its block (`if not torch.cuda.is_available() or
    not flash: return` before `torch.cuda.get_device_properties(...)`: lucidrains' attend.py,
    nanochat's flash-attention probe).

    ``identity=False`` leaves out the device-string tests, for the device pass itself, which
    flips them in the same run; ``availability_stays`` says which availability calls stay False
    (for the device pass: those it does not make true). Ask it of the tree the device pass
    left, or of the device pass's own original tree with those two arguments."""

    def requires(test: cst.BaseExpression) -> bool:
        if _requires_cuda(test, identity, availability_stays):
            return True
        # `if self.is_cuda:` where every `self.is_cuda = ...` of the class requires CUDA
        # (timm's PrefetchLoader: `self.is_cuda = device.type == 'cuda' and
        # torch.cuda.is_available()`).
        values = _attribute_values(test, node, parent_of)
        return bool(values) and all(
            _requires_cuda(value, identity, availability_stays) for value in values
        )

    child = node
    parent = parent_of(node)
    while parent is not None and not isinstance(parent, cst.FunctionDef | cst.ClassDef):
        if isinstance(parent, cst.IndentedBlock | cst.Module) and _after_exit_without_cuda(
            parent.body, child, requires
        ):
            return True
        if isinstance(parent, cst.If) and parent.body is child and requires(parent.test):
            return True
        if isinstance(parent, cst.IfExp) and parent.body is child and requires(parent.test):
            return True
        if isinstance(parent, cst.BooleanOperation) and parent.right is child:
            left = parent.left
            if isinstance(parent.operator, cst.And) and requires(left):
                return True
            if (
                isinstance(parent.operator, cst.Or)
                and isinstance(left, cst.UnaryOperation)
                and isinstance(left.operator, cst.Not)
                and requires(left.expression)
            ):
                return True
        child, parent = parent, parent_of(parent)
    return False


def _after_exit_without_cuda(
    body: Sequence[cst.CSTNode],
    child: cst.CSTNode,
    requires: Callable[[cst.BaseExpression], bool],
) -> bool:
    """``child`` comes after a statement of ``body`` that always leaves the block on Trainium
    once migrated: an ``if`` with no ``else`` whose test is True without CUDA (`not
    torch.cuda.is_available()`, alone or as an operand of ``or``) and whose block ends in
    ``return``, ``continue``, ``break`` or ``raise``. Not a bare `if not
    torch.cuda.is_available():` that raises or exits: TRN803 removes that check, so the
    migrated program runs on past it."""
    for statement in body:
        if statement is child:
            return False
        if (
            isinstance(statement, cst.If)
            and statement.orelse is None
            and _true_without_cuda(statement.test, requires)
            and _exits(statement.body)
            and not (_negated_check(statement.test) and not _returns(statement.body))
        ):
            return True
    return False


def _negated_check(test: cst.BaseExpression) -> bool:
    """`not <call>` alone: the shape of a whole check TRN803 removes where its block stops the
    script (the call is the availability test ``_true_without_cuda`` accepted)."""
    return isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)


def _returns(block: cst.BaseSuite) -> bool:
    """The block's last statement is a ``return``, ``continue`` or ``break``: it leaves the
    function or the loop, not the script, and no pass removes the check above it."""
    last = block.body[-1] if block.body else None
    if isinstance(last, cst.SimpleStatementLine) and last.body:
        last = last.body[-1]
    return isinstance(last, cst.Return | cst.Continue | cst.Break)


def _true_without_cuda(
    test: cst.BaseExpression, requires: Callable[[cst.BaseExpression], bool]
) -> bool:
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return requires(test.expression)
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
        return _true_without_cuda(test.left, requires) or _true_without_cuda(test.right, requires)
    return False


def _exits(block: cst.BaseSuite) -> bool:
    """The block's last statement leaves it: ``return``, ``raise``, ``continue``, ``break``."""
    body = block.body
    if not body:
        return False
    last = body[-1]
    if isinstance(last, cst.SimpleStatementLine):
        return bool(last.body) and isinstance(
            last.body[-1], cst.Return | cst.Raise | cst.Continue | cst.Break
        )
    if isinstance(last, cst.BaseSmallStatement):
        return isinstance(last, cst.Return | cst.Raise | cst.Continue | cst.Break)
    return False


class _Pass(Protocol):
    run: Any

    def get_metadata(self, key: Any, node: cst.CSTNode, default: Any = ...) -> Any: ...


def never_runs(pass_: _Pass, node: cst.CSTNode) -> bool:
    """``in_cuda_only_block`` for a pass that runs after the device pass; a device-string test
    counts only where that pass could rewrite such tests (TRN023 selected)."""
    return in_cuda_only_block(
        node,
        lambda n: pass_.get_metadata(ParentNodeProvider, n, None),
        identity="TRN023" in pass_.run.enabled,
    )


def conjoined_with_cuda_only(
    node: cst.BaseExpression,
    parent_of: Callable[[cst.CSTNode], cst.CSTNode | None],
    availability_stays: Callable[[cst.Call], bool],
) -> bool:
    """``node`` is an operand of an ``and`` (at any depth of ``and``s) another operand of which
    is a ``torch.cuda.is_available()`` that stays False: the whole test is False on Trainium
    whatever ``node`` becomes (timm's `'cuda' in args.device and torch.cuda.is_available()`)."""
    child, parent = node, parent_of(node)
    while isinstance(parent, cst.BooleanOperation) and isinstance(parent.operator, cst.And):
        other = parent.right if parent.left is child else parent.left
        if _requires_cuda(other, False, availability_stays):
            return True
        child, parent = parent, parent_of(parent)
    return False


def conjoined_with_cuda_absence(
    node: cst.BaseExpression,
    parent_of: Callable[[cst.CSTNode], cst.CSTNode | None],
    is_availability: Callable[[cst.CSTNode], bool],
) -> bool:
    """``node`` is an operand of an ``and`` (at any depth of ``and``s) another operand of which
    is ``not torch.cuda.is_available()``: the test asks whether CUDA was asked for where there is
    none (stable-baselines3's `get_device`: `device.type == th.device("cuda").type and not
    th.cuda.is_available()` → the CPU). Made a test for the XLA device, it would send the XLA
    device to that fallback; left as it is, it is False on Trainium, as the fallback needs."""
    child, parent = node, parent_of(node)
    while isinstance(parent, cst.BooleanOperation) and isinstance(parent.operator, cst.And):
        other = parent.right if parent.left is child else parent.left
        if (
            isinstance(other, cst.UnaryOperation)
            and isinstance(other.operator, cst.Not)
            and is_availability(other.expression)
        ):
            return True
        child, parent = parent, parent_of(parent)
    return False


def _attribute_values(
    test: cst.BaseExpression,
    node: cst.CSTNode,
    parent_of: Callable[[cst.CSTNode], cst.CSTNode | None],
) -> list[cst.BaseExpression]:
    """The values the class around ``node`` assigns to ``self.<name>`` where ``test`` is that
    attribute, read in one of its methods; [] where ``test`` is anything else, or an assignment
    of it is not ``self.<name> = value`` (an augmented one, a tuple target)."""
    if not (
        isinstance(test, cst.Attribute)
        and isinstance(test.value, cst.Name)
        and test.value.value == "self"
    ):
        return []
    owner = parent_of(node)
    while owner is not None and not isinstance(owner, cst.ClassDef):
        owner = parent_of(owner)
    if owner is None:
        return []
    name = test.attr.value
    values: list[cst.BaseExpression] = []
    for found in walk(owner):
        targets: list[cst.BaseExpression] = []
        if isinstance(found, cst.Assign):
            targets = [t.target for t in found.targets]
        elif isinstance(found, cst.AugAssign | cst.AnnAssign):
            targets = [found.target]
        for target in targets:
            if _self_attribute(target, name):
                if not isinstance(found, cst.Assign) or len(targets) != 1:
                    return []
                values.append(found.value)
            elif any(_self_attribute(t, name) for t in walk(target)):
                return []  # `self.a, self.b = ...`: not read here
    return values


def _self_attribute(node: cst.CSTNode, name: str) -> bool:
    return (
        isinstance(node, cst.Attribute)
        and isinstance(node.value, cst.Name)
        and node.value.value == "self"
        and node.attr.value == name
    )


def _requires_cuda(
    test: cst.BaseExpression, identity: bool, availability_stays: Callable[[cst.Call], bool]
) -> bool:
    """``device_type == "cuda"`` or ``device.startswith("cuda")`` (with ``identity``), or a
    ``torch.cuda.is_available()`` that stays, alone or as a conjunct of ``and``."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _requires_cuda(test.left, identity, availability_stays) or _requires_cuda(
            test.right, identity, availability_stays
        )
    if is_cuda_availability(test):
        assert isinstance(test, cst.Call)
        return availability_stays(test)
    if not identity:
        return False
    if (
        isinstance(test, cst.Call)
        and isinstance(test.func, cst.Attribute)
        and test.func.attr.value == "startswith"
        and len(test.args) == 1
        and identity_subject(test.func.value) is not None
    ):
        value = test.args[0].value
        return isinstance(value, cst.SimpleString) and value.evaluated_value in ("cuda", "cuda:")
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return False
    if not isinstance(test.comparisons[0].operator, cst.Equal | cst.In):
        return False
    operands = (test.left, test.comparisons[0].comparator)
    return any(is_cuda_string(o) for o in operands) and any(
        identity_subject(o) is not None for o in operands
    )
