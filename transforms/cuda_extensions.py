"""CUDA extensions a module builds (``torch.utils.cpp_extension.load``/``load_inline`` with CUDA
sources): a Trainium host has no CUDA toolkit, so the build raises where it runs (TRN050). The
facts are ``trncodemod.analysis.cuda_kernels``'s; `CUDAExtension` in a setup.py is an install
step, not the program's run, and is left out."""

from __future__ import annotations

from dataclasses import replace

import libcst as cst
from libcst.metadata import PositionProvider

from trncodemod.analysis.cuda_kernels import CudaKernels, ExtensionBuild, cuda_kernels
from trncodemod.analysis.enabled import never_runs
from trncodemod.analysis.facts import FileFacts
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


RULES: tuple[type[Rule], ...] = (CudaExtensionBuild,)


class CudaExtensions(Pass):
    name = "cuda-extensions"
    rules = RULES
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
