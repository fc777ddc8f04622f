"""CUDA kernels a module holds: a CUDA extension it builds with
``torch.utils.cpp_extension.load``/``load_inline`` from CUDA sources (``.cu``/``.cuh`` files,
``cuda_sources=``, ``with_cuda=True``), and cuDNN ops it calls by name
(``torch._C._jit_get_operation("aten::cudnn_...")``, ``torch.ops.aten.cudnn_*``); with where the
module sends a tensor to its own PyTorch path instead (StyleGAN2's `if input.device.type ==
"cpu": upfirdn2d_native(...) else: UpFirDn2d.apply(...)`).

Two passes ask it: the CUDA-extension pass reports a build that runs where the program is
launched (TRN050), and the device pass leaves a `"cuda"` test that selects such a kernel as it is
(TRN046), since XLA tensors must take the PyTorch path, which the test as written gives them.

A build compiles its CUDA sources with nvcc, found through ``CUDA_HOME`` ([torch-cpp-extension]);
without a CUDA toolkit it raises ``OSError`` (``CUDA_HOME environment variable is not set``), or
``RuntimeError`` earlier where ninja is missing ([torch-cpp-extension-source])."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, replace

import libcst as cst

from trncodemod.analysis.nodes import children, find, walk

Names = Callable[[cst.CSTNode], Collection[str]]

_BUILDS = frozenset({"torch.utils.cpp_extension.load", "torch.utils.cpp_extension.load_inline"})
_CUDA_SUFFIXES = (".cu", ".cuh")
_JIT_OPERATION = "torch._C._jit_get_operation"
_CUDNN = "torch.backends.cudnn."
# What a failed build raises depends on what the host lacks (OSError without CUDA_HOME,
# RuntimeError without ninja, and whatever the CUDA tool chain raises where it is half there):
# only a handler of every exception guards it.
_CATCH_ALL = frozenset({"Exception", "BaseException"})


@dataclass(frozen=True)
class ExtensionBuild:
    call: cst.Call
    bound: str  # the name the extension is bound to ("" where none)
    cuda_source: str  # the CUDA source named, or how CUDA is asked for (`cuda_sources=`)
    function: str  # the function that builds it when called ("": when the module is imported)
    caught: bool  # a `try` around it catches what a failed build raises
    uncaught: str  # the handler around it that does not catch that ("" where none)
    # The call of ``function`` at the module's top level that builds it on import
    # (`_C = _load_extension()`), where there is one.
    on_import: cst.Call | None = None


@dataclass(frozen=True)
class Dispatch:
    """A device test that sends only some tensors to the module's PyTorch path."""

    function: str  # where the test is ("fused_leaky_relu")
    test: cst.Comparison  # `input.device.type == "cpu"`
    native: str  # the PyTorch path: a function of the module, or "" (the branch itself)


@dataclass(frozen=True)
class CudaKernels:
    builds: tuple[ExtensionBuild, ...] = ()
    cudnn_ops: tuple[tuple[cst.CSTNode, str], ...] = ()  # (the node, the op's name)
    dispatches: tuple[Dispatch, ...] = ()
    # CUDA sources the module names (`sources=["bias_act.cpp", "bias_act.cu"]` handed to a
    # project's own build helper): the module builds a CUDA extension through it.
    named_sources: tuple[tuple[cst.SimpleString, str], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.builds or self.cudnn_ops or self.named_sources)


def is_cuda_build(
    call: cst.Call,
    names: Names,
    bound: Mapping[str, list[cst.BaseExpression]] | None = None,
) -> str | None:
    """What makes ``call`` a CUDA extension build (the CUDA source it names); None where it is
    not one (a C++-only extension builds without CUDA). ``bound``: what the module assigns to
    each name, for sources given by a name (`sources = [...]; load(name, sources)`)."""
    if not _BUILDS & set(names(call.func)):
        return None
    for arg in call.args:
        keyword = arg.keyword.value if arg.keyword is not None else None
        if keyword == "with_cuda":
            return "with_cuda=True" if _is_true(arg.value) else None
    inline = any("load_inline" in n for n in names(call.func))
    position = 2 if inline else 1
    for index, arg in enumerate(call.args):
        keyword = arg.keyword.value if arg.keyword is not None else None
        if inline and (keyword == "cuda_sources" or (keyword is None and index == position)):
            if not (isinstance(arg.value, cst.Name) and arg.value.value == "None"):
                return "cuda_sources="
        if not inline and (keyword == "sources" or (keyword is None and index == position)):
            values = [arg.value]
            if isinstance(arg.value, cst.Name) and bound:
                values += bound.get(arg.value.value, [])
            return next((f for v in values if (f := _cuda_file(v)) is not None), None)
    return None


def cudnn_op(node: cst.CSTNode, names: Names) -> str | None:
    """``torch._C._jit_get_operation("aten::cudnn_...")`` or ``torch.ops.aten.cudnn_*``: a
    cuDNN kernel called by name, which only a CUDA tensor can reach."""
    if isinstance(node, cst.Call) and _JIT_OPERATION in names(node.func):
        for string in find(node, cst.SimpleString):
            value = string.evaluated_value
            if isinstance(value, str) and value.startswith("aten::cudnn"):
                return value
        return None
    if isinstance(node, cst.Attribute) and node.attr.value.startswith("cudnn"):
        if any(n.startswith("torch.ops.aten.cudnn") for n in names(node)):
            return f"aten::{node.attr.value}"
    return None


def cuda_kernels(
    module: cst.Module, names: Names, parents: Mapping[cst.CSTNode, cst.CSTNode]
) -> CudaKernels:
    builds: list[ExtensionBuild] = []
    ops: list[tuple[cst.CSTNode, str]] = []
    bound: dict[str, list[cst.BaseExpression]] = {}
    for assign in find(module, cst.Assign):
        for target in assign.targets:
            if isinstance(target.target, cst.Name):
                bound.setdefault(target.target.value, []).append(assign.value)
    named: list[tuple[cst.SimpleString, str]] = []
    for node in walk(module):
        op = cudnn_op(node, names)
        if op is not None:
            ops.append((node, op))
        if isinstance(node, cst.SimpleString):
            text = node.evaluated_value
            if isinstance(text, str) and text.endswith(_CUDA_SUFFIXES):
                named.append((node, text.rsplit("/", 1)[-1]))
        if not isinstance(node, cst.Call):
            continue
        source = is_cuda_build(node, names, bound)
        if source is None:
            continue
        uncaught = _handled(node, parents)
        builds.append(
            ExtensionBuild(
                node,
                _bound(node, parents),
                source,
                _function(node, parents),
                uncaught is None,
                uncaught or "",
            )
        )
    if not builds and not ops:
        return CudaKernels(named_sources=tuple(named))
    builds = [_called_on_import(build, module, parents) for build in builds]
    handles = {b.bound for b in builds if b.bound}
    dispatches = _dispatches(module, handles, parents)
    return CudaKernels(tuple(builds), tuple(ops), dispatches, tuple(named))


def _called_on_import(
    build: ExtensionBuild, module: cst.Module, parents: Mapping[cst.CSTNode, cst.CSTNode]
) -> ExtensionBuild:
    """``build`` with the top-level call of its function that runs it when the module is
    imported, if any; the name that call binds is the extension's, and a handler around the
    call counts as one around the build."""
    defined = {f.name.value for f in module.body if isinstance(f, cst.FunctionDef)}
    if build.caught or build.function not in defined:
        return build
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef | cst.ClassDef):
            continue
        for call in _top_level_calls(statement):
            if isinstance(call.func, cst.Name) and call.func.value == build.function:
                uncaught = _handled(call, parents)
                return replace(
                    build,
                    bound=build.bound or _bound(call, parents),
                    caught=uncaught is None,
                    uncaught=build.uncaught or uncaught or "",
                    on_import=call,
                )
    return build


def _top_level_calls(root: cst.CSTNode) -> list[cst.Call]:
    """The calls ``root`` runs itself: not those in the functions, classes or lambdas it holds."""
    found = []
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call):
            found.append(node)
        if node is root or not isinstance(node, cst.FunctionDef | cst.ClassDef | cst.Lambda):
            stack.extend(reversed(children(node)))
    return found


def tests_cudnn(node: cst.CSTNode, parents: Mapping[cst.CSTNode, cst.CSTNode], names: Names) -> str:
    """A test of ``torch.backends.cudnn`` (`if not torch.backends.cudnn.enabled: return False`) in
    the function around ``node``, as written; "" where there is none. Setting a flag
    (`torch.backends.cudnn.benchmark = True`) is not a test."""
    function = _around(node, parents, cst.FunctionDef)
    if function is None:
        return ""
    for test in _tests(function):
        for inner in walk(test):
            if isinstance(inner, cst.Attribute) and any(n.startswith(_CUDNN) for n in names(inner)):
                return _code(inner)
    return ""


def _tests(function: cst.FunctionDef) -> list[cst.BaseExpression]:
    found: list[cst.BaseExpression] = []
    for node in walk(function.body):
        if isinstance(node, cst.If | cst.While | cst.IfExp | cst.Assert):
            found.append(node.test)
        elif isinstance(node, cst.Return) and node.value is not None:
            found.append(node.value)
    return found


def _is_true(value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.Name) and value.value == "True"


def _cuda_file(value: cst.BaseExpression) -> str | None:
    for node in walk(value):
        if isinstance(node, cst.SimpleString):
            text = node.evaluated_value
            if isinstance(text, str) and text.endswith(_CUDA_SUFFIXES):
                return text.rsplit("/", 1)[-1]
    return None


def _handled(call: cst.Call, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> str | None:
    """None where a ``try`` around ``call`` catches every exception, which is what guards a
    build; else the nearest handler that does not ("" where there is no ``try``)."""
    nearest = ""
    child: cst.CSTNode = call
    parent = parents.get(call)
    while parent is not None and not isinstance(parent, cst.FunctionDef | cst.ClassDef):
        if isinstance(parent, cst.Try) and parent.body is child:
            caught: set[str] = set()
            for handler in parent.handlers:
                if handler.type is None:
                    return None
                caught |= {n.value for n in walk(handler.type) if isinstance(n, cst.Name)}
                caught |= {n.attr.value for n in walk(handler.type) if isinstance(n, cst.Attribute)}
            if caught & _CATCH_ALL:
                return None
            spelled = ", ".join(sorted(caught))
            if caught and not nearest:
                nearest = f"except ({spelled})" if len(caught) > 1 else f"except {spelled}"
        child, parent = parent, parents.get(parent)
    return nearest


def _bound(call: cst.Call, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> str:
    parent = parents.get(call)
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
        target = parent.targets[0].target
        if isinstance(target, cst.Name):
            return target.value
    return ""


def _around(node: cst.CSTNode, parents: Mapping[cst.CSTNode, cst.CSTNode], kind: type):
    parent = parents.get(node)
    while parent is not None and not isinstance(parent, kind):
        parent = parents.get(parent)
    return parent


def _function(node: cst.CSTNode, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> str:
    function = _around(node, parents, cst.FunctionDef)
    return function.name.value if function is not None else ""


def _dispatches(
    module: cst.Module, handles: set[str], parents: Mapping[cst.CSTNode, cst.CSTNode]
) -> tuple[Dispatch, ...]:
    """Each test of a tensor's device type against "cpu" or "cuda" in a function of the module
    whose branch for an XLA tensor reaches a kernel (an autograd Function's ``.apply`` or the
    built extension) and whose other branch does not: the `else`, or what follows an `if` whose
    block returns (`if input.device.type == "cpu": return native(...)`)."""
    functions = {f.name.value for f in module.body if isinstance(f, cst.FunctionDef)}
    found = []
    for function in find(module, cst.FunctionDef):
        for branch in find(function, cst.If):
            xla_taken = _xla_takes(branch.test)
            if xla_taken is None:
                continue
            other = _other_branch(branch, parents)
            kernel, native = ([branch.body], other) if xla_taken else (other, [branch.body])
            if not kernel or not native or not _reaches_kernel(kernel, handles):
                continue
            if _reaches_kernel(native, handles):
                continue
            called = [
                call.func.value
                for block in native
                for call in find(block, cst.Call)
                if isinstance(call.func, cst.Name) and call.func.value in functions
            ]
            assert isinstance(branch.test, cst.Comparison)  # _xla_takes
            found.append(Dispatch(function.name.value, branch.test, called[0] if called else ""))
    return tuple(found)


def _other_branch(branch: cst.If, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> list[cst.CSTNode]:
    """What runs where ``branch``'s test is false: its `else`, or, where its block ends by
    returning or raising, the statements after it."""
    if isinstance(branch.orelse, cst.Else):
        return [branch.orelse.body]
    if branch.orelse is not None:
        return [branch.orelse]
    last = branch.body.body[-1] if isinstance(branch.body, cst.IndentedBlock) else None
    leaves = isinstance(last, cst.SimpleStatementLine) and isinstance(
        last.body[-1], cst.Return | cst.Raise
    )
    block = parents.get(branch)
    body = getattr(block, "body", None)
    if not leaves or not isinstance(body, tuple | list) or branch not in body:
        return []
    return list(body[body.index(branch) + 1 :])


def _xla_takes(test: cst.BaseExpression) -> bool | None:
    """Whether an XLA tensor takes the ``if`` branch of a test of the device's type against
    "cpu" or "cuda" (None: not such a test)."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    target = test.comparisons[0]
    sides = (test.left, target.comparator)
    strings = [s.evaluated_value for s in sides if isinstance(s, cst.SimpleString)]
    subjects = [s for s in sides if isinstance(s, cst.Attribute) and s.attr.value == "type"]
    if len(strings) != 1 or not subjects or strings[0] not in ("cpu", "cuda"):
        return None
    if isinstance(target.operator, cst.Equal):
        return False  # "xla" is neither
    if isinstance(target.operator, cst.NotEqual):
        return True
    return None


def _reaches_kernel(blocks: Iterable[cst.CSTNode], handles: set[str]) -> bool:
    for node in (n for block in blocks for n in walk(block)):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            if node.func.attr.value == "apply":
                return True
        if isinstance(node, cst.Name) and node.value in handles:
            return True
    return False


def _code(node: cst.CSTNode) -> str:
    return " ".join(cst.Module(body=[]).code_for_node(node).split())
