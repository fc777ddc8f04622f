"""CUDA extensions a module builds (``torch.utils.cpp_extension.load``/``load_inline`` with CUDA
sources): a Trainium host has no CUDA toolkit, so the build raises where it runs (TRN050). The
facts are ``trncodemod.analysis.cuda_kernels``'s; `CUDAExtension` in a setup.py is an install
step, not the program's run, and is left out. Imports of third-party libraries that need CUDA
(``data/cuda_libraries.toml``: flash-attn, cupy, pytorch-qrnn...) raise there too (TRN051)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import libcst as cst
from libcst.metadata import PositionProvider

from trncodemod.analysis.cuda_kernels import CudaKernels, ExtensionBuild, cuda_kernels
from trncodemod.analysis.cuda_libraries import CudaLibrary, cuda_libraries, cuda_library
from trncodemod.analysis.enabled import never_runs
from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.loops import dotted
from trncodemod.analysis.nodes import walk
from trncodemod.analysis.program import LONE
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Target


class CudaExtensionBuild(Rule):
    """## What it does
    Reports a CUDA extension built by the program: `torch.utils.cpp_extension.load(...)` whose
    `sources` name a `.cu`/`.cuh` file (or `with_cuda=True`), and `load_inline(...)` with
    `cuda_sources=`. Built when the module is imported (at its top level, as StyleGAN2's
    `op/fused_act.py` does, or in a function its top level calls: `_C = _load_extension()`), it
    is a blocker: every entry point that imports the module stops at the import, and its
    verdict names this line; on a line the program evaluator shows off the launch path, or in a
    module no entry point imports, it is a warning.
    Built in a function, it is a warning: the run stops where that function is called. The
    message names what to do, and where the module already has a PyTorch path that a device
    test gives only CPU tensors (`if input.device.type == "cpu": upfirdn2d_native(...) else:
    UpFirDn2d.apply(...)`), which function that is. Not reported where only CUDA runs the build
    (`if torch.cuda.is_available():`) or where a `try` around it catches every exception
    (`except Exception:` with a fallback). Nothing is changed: the fallback is a choice
    about what the model computes.

    ## Why
    `load` compiles the CUDA sources with nvcc, found through `CUDA_HOME`
    ([torch-cpp-extension]); a Trainium host has no CUDA toolkit, and torch 2.9 raises
    `OSError: CUDA_HOME environment variable is not set` at the build (or `RuntimeError` first,
    where ninja is missing) ([torch-cpp-extension-source]). Only a handler of `Exception`
    guards it: `except ImportError:` catches neither, and which error comes depends on what the
    host lacks. The kernels would not run on XLA tensors either.

    ## Example
    ```python
    fused = load("fused", sources=["fused_bias_act.cpp", "fused_bias_act_kernel.cu"])

    def fused_leaky_relu(input, bias):
        if input.device.type == "cpu":
            return F.leaky_relu(input + bias.view(1, -1, 1, 1), 0.2) * 2**0.5
        return FusedLeakyReLUFunction.apply(input, bias)
    ```

    ## Use instead
    ```python
    fused = None
    if torch.cuda.is_available():
        fused = load("fused", sources=["fused_bias_act.cpp", "fused_bias_act_kernel.cu"])

    def fused_leaky_relu(input, bias):
        if input.device.type != "cuda":  # XLA tensors take the PyTorch path
            return F.leaky_relu(input + bias.view(1, -1, 1, 1), 0.2) * 2**0.5
        return FusedLeakyReLUFunction.apply(input, bias)
    ```
    """

    code = "TRN050"
    name = "cuda-extension-build"
    summary = "a CUDA extension built by the program (`cpp_extension.load` of `.cu` sources) raises"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("torch-cpp-extension", "torch-cpp-extension-source")


class CudaOnlyLibraryImport(Rule):
    """## What it does
    Reports an import of a third-party library that needs CUDA: pytorch-qrnn (`torchqrnn`),
    CuPy, pynvrtc, flash-attn, xformers, apex, bitsandbytes, Transformer Engine, mamba-ssm,
    causal-conv1d (the table is data: `trncodemod/data/cuda_libraries.toml`, each library with
    its own README or documentation saying it needs CUDA). An import the module runs when it is
    imported (at its top level, under no condition) is a blocker, once per library (the first
    import raises, so a second never runs): every entry point that imports the module stops
    there; on a line the program evaluator shows off the launch path,
    or in a module no entry point imports, it is a warning. An import in a function or under a
    condition is a warning: the run stops only where that branch is taken, and the warning
    names the launch lines that take it (the evaluator runs each launch line alone:
    `--model QRNN` takes `if rnn_type == 'QRNN':`). Not reported where only CUDA runs it
    (`if torch.cuda.is_available():`), where only an installed library does
    (`if is_flash_attn_2_available():`, `importlib.util.find_spec("cupy")`), under
    `if TYPE_CHECKING:`, or where a `try` around it catches `ImportError` with a fallback. Nothing is changed: the replacement is a choice about
    what the model computes.

    ## Why
    A Trainium host has no NVIDIA GPU, driver or CUDA toolkit. pytorch-qrnn's `forget_mult`
    imports cupy and pynvrtc and compiles its kernel with NVRTC ([pytorch-qrnn]); CuPy needs an
    NVIDIA CUDA GPU and the CUDA Toolkit ([cupy-install]); pynvrtc binds NVRTC
    ([nvidia-pynvrtc]); flash-attn, xformers, mamba-ssm and causal-conv1d are CUDA kernels
    ([flash-attn], [xformers-readme], [mamba-ssm], [causal-conv1d]); apex builds CUDA extensions
    ([apex-setup]); bitsandbytes has no Trainium backend ([bitsandbytes-backends]);
    Transformer Engine runs on NVIDIA GPUs ([transformer-engine]). The import raises, or the
    kernels it gives reject XLA tensors.

    ## Example
    ```python
    if rnn_type == "QRNN":
        from torchqrnn import QRNNLayer
    ```

    ## Use instead
    ```python
    if rnn_type == "QRNN":
        raise ValueError("QRNN needs CUDA (cupy, pynvrtc); use --model LSTM on Trainium")
    ```
    """

    code = "TRN051"
    name = "cuda-only-library-import"
    summary = "an import of a third-party library that needs CUDA (flash-attn, cupy, torchqrnn...)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = (
        "pytorch-qrnn",
        "cupy-install",
        "nvidia-pynvrtc",
        "flash-attn",
        "xformers-readme",
        "mamba-ssm",
        "causal-conv1d",
        "apex-setup",
        "bitsandbytes-backends",
        "transformer-engine",
    )


RULES: tuple[type[Rule], ...] = (CudaExtensionBuild, CudaOnlyLibraryImport)


class CudaExtensions(Pass):
    name = "cuda-extensions"
    rules = (CudaExtensionBuild,)
    needles = ("cpp_extension",)

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        return facts.reaches("torch.utils.cpp_extension")

    def visit_Module(self, node: cst.Module) -> bool:
        kernels = cuda_kernels(node, self.module_names, self.parents())
        for build in kernels.builds:
            if build.caught or never_runs(self, build.call):
                continue
            on_import = not build.function or (
                build.on_import is not None and not never_runs(self, build.on_import)
            )
            message = self._message(build, kernels, on_import)
            if self.report(build.call, CudaExtensionBuild, message, False):
                if on_import and self._on_launch_path():
                    self.findings[-1] = replace(self.findings[-1], severity=Severity.BLOCKER)
        return False

    def _on_launch_path(self) -> bool:
        """The module runs where the program is launched: an entry point, a module an entry
        point reaches, or a file read alone (nothing says it is not)."""
        program = self.run.program
        return program == LONE or program.role == "entry" or bool(program.entry_points)

    def _message(self, build: ExtensionBuild, kernels: CudaKernels, on_import: bool) -> str:
        name = f" `{build.bound}`" if build.bound else ""
        if not on_import:
            when = f"when `{build.function}()` is called"
            stops = "a run that calls it on Trainium stops there"
        else:
            when = "when the module is imported"
            if build.on_import is not None:
                line = self.get_metadata(PositionProvider, build.on_import).start.line
                when += f" (`{build.function}()` at line {self.run.to_original(line)})"
            entries = self.run.program.entry_points
            stops = "every run that imports the module stops here" + (
                f" ({', '.join(entries[:3])})" if entries else ""
            )
        caught = (
            f" (the `{build.uncaught}` around it does not catch every error a failed build "
            "raises, which depends on what the host lacks: OSError without CUDA_HOME, "
            "RuntimeError without ninja; catch Exception)"
            if build.uncaught
            else ""
        )
        return (
            f"builds the CUDA extension{name} (`{build.cuda_source}`) {when}: that needs nvcc "
            "and a CUDA toolkit (CUDA_HOME), which a Trainium host does not have, so it raises"
            f" and {stops}{caught}; build it only under `if torch.cuda.is_available():` "
            f"(else bind None), and {self._fallback(kernels)}"
        )

    def _fallback(self, kernels: CudaKernels) -> str:
        if not kernels.dispatches:
            return "give XLA tensors a PyTorch implementation of what its kernels compute"
        paths = []
        for dispatch in kernels.dispatches[:3]:
            line = self.run.to_original(
                self.get_metadata(PositionProvider, dispatch.test).start.line
            )
            native = f" (`{dispatch.native}`)" if dispatch.native else ""
            subject = _subject(dispatch.test)
            paths.append(
                f"`{dispatch.function}` (line {line}) gives its PyTorch path{native} only to "
                f'CPU tensors: test `{subject} != "cuda"` there'
            )
        return "send XLA tensors to the module's PyTorch path: " + "; ".join(paths)


def _subject(test: cst.Comparison) -> str:
    sides = (test.left, test.comparisons[0].comparator)
    side = next(s for s in sides if not isinstance(s, cst.SimpleString))
    return cst.Module(body=[]).code_for_node(side)


# What a failed import of a library raises where it is not installed, or where its CUDA
# libraries are missing (an OSError from loading them is wrapped by few): a handler of one of
# these with a fallback guards it.
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


class CudaLibraries(Pass):
    name = "cuda-libraries"
    rules = (CudaOnlyLibraryImport,)
    needles = tuple(cuda_libraries())

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        return facts.reaches(*cuda_libraries())

    def visit_Module(self, node: cst.Module) -> bool:
        # The libraries already reported as imported when the module is: a later import of
        # the same one at import time never runs (the first raised).
        self._stopped: set[str] = set()
        return True

    def visit_Import(self, node: cst.Import) -> bool:
        self._check(node, [dotted(alias.name) or "" for alias in node.names])
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        if node.relative or node.module is None:
            return False  # the project's own module
        self._check(node, [dotted(node.module) or ""])
        return False

    def _check(self, node: cst.Import | cst.ImportFrom, modules: list[str]) -> None:
        found = next(((m, lib) for m in modules if (lib := cuda_library(m)) is not None), None)
        if found is None or never_runs(self, node):
            return
        module, library = found
        parents = self.parents()
        where, guarded = _where(node, parents)
        if guarded or (not where and library.module in self._stopped):
            return
        if not where:
            self._stopped.add(library.module)
        message = self._message(module, library, where)
        if self.report(node, CudaOnlyLibraryImport, message, False):
            if not where and self._on_launch_path():
                self.findings[-1] = replace(self.findings[-1], severity=Severity.BLOCKER)

    def _on_launch_path(self) -> bool:
        program = self.run.program
        return program == LONE or program.role == "entry" or bool(program.entry_points)

    def _message(self, module: str, library: CudaLibrary, where: str) -> str:
        package = f" ({library.package})" if library.package != library.module else ""
        if where:
            stops = f"a run where {where} stops here on Trainium"
        elif not self._on_launch_path():
            stops = "a run that imports the module stops here (no entry point imports it)"
        else:
            entries = self.run.program.entry_points
            stops = "every run that imports the module stops here" + (
                f" ({', '.join(entries[:3])})" if entries else ""
            )
        return (
            f"imports `{module}`{package}, which needs CUDA: {library.why}; a "
            f"Trainium host has no CUDA, so the import raises (or its kernels reject XLA "
            f"tensors) and {stops}; use {library.instead} there, or import it only under "
            "`if torch.cuda.is_available():`"
        )


def _where(node: cst.CSTNode, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> tuple[str, bool]:
    """What the import runs under, innermost first ("" where it runs when the module is
    imported: its top level, a class body, a `with`), and whether it is guarded (`if
    TYPE_CHECKING:`, a `try` whose handler of ImportError does more than raise)."""
    where = ""
    child, parent = node, parents.get(node)
    while parent is not None:
        if isinstance(parent, cst.Try) and parent.body is child and _falls_back(parent):
            return where, True
        if isinstance(parent, cst.If):
            test = _code(parent.test)
            if parent.body is child and (
                test in ("TYPE_CHECKING", "typing.TYPE_CHECKING") or _checks_installed(parent.test)
            ):
                return where, True
            branch = f"`if {test}:`" if parent.body is child else f"the `else` of `if {test}:`"
            where = where or f"{branch} is taken"
        elif isinstance(parent, cst.For | cst.While):
            where = where or "a loop runs"
        elif isinstance(parent, cst.FunctionDef | cst.Lambda):
            name = parent.name.value if isinstance(parent, cst.FunctionDef) else "lambda"
            return (f"{where} in `{name}()`" if where else f"`{name}()` is called"), False
        child, parent = parent, parents.get(parent)
    return where, False


def _checks_installed(test: cst.BaseExpression) -> bool:
    """A test that holds only where a library is installed: transformers' and diffusers'
    `is_flash_attn_2_available()`, `is_xformers_available()`, or
    `importlib.util.find_spec("cupy")`; False on a host without it, like a fallback."""
    for node in walk(test):
        if isinstance(node, cst.Call):
            func = node.func
            name = (
                func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
            )
            if name == "find_spec" or name.startswith("is_") and name.endswith("_available"):
                if name != "is_available":  # torch.cuda.is_available(): never_runs'
                    return True
    return False


def _falls_back(block: cst.Try) -> bool:
    """A handler of what a failed import raises whose body does more than raise again."""
    for handler in block.handlers:
        caught = {"BaseException"} if handler.type is None else set()
        for name in walk(handler.type) if handler.type is not None else ():
            if isinstance(name, cst.Name):
                caught.add(name.value)
            elif isinstance(name, cst.Attribute):
                caught.add(name.attr.value)
        if not caught & _IMPORT_ERRORS:
            continue
        body = handler.body.body if isinstance(handler.body, cst.IndentedBlock) else ()
        if not all(
            isinstance(s, cst.SimpleStatementLine) and all(isinstance(b, cst.Raise) for b in s.body)
            for s in body
        ):
            return True
    return False


def _code(node: cst.CSTNode) -> str:
    return " ".join(cst.Module(body=[]).code_for_node(node).split())
