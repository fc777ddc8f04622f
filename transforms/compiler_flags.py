"""Compiler flags: the `NEURON_CC_FLAGS` a migrated script needs, as notes for the launcher and,
for `--model-type=transformer` only, as an append at the top of the script
([neuron-envvars, neuron-cc-cli]).

`--auto-cast=none` (needed with autocast) is the mixed-precision pass's to append, next to the
autocast rewrite that makes it necessary; this pass does not add or report it a second time.
"""

from __future__ import annotations

import re

import libcst as cst
from libcst.metadata import ScopeProvider

from trncodemod.analysis.facts import FileFacts, may_resolve
from trncodemod.analysis.loops import dotted, find_step_loops
from trncodemod.analysis.model_names import SCALER_NAME
from trncodemod.analysis.nodes import find, visit
from trncodemod.analysis.program import ModuleView
from trncodemod.analysis.step_scan import step_scan
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass, PlainVisitor
from trncodemod.targets import Target

_VARIABLE = "NEURON_CC_FLAGS"
_ROUNDING = "NEURON_RT_STOCHASTIC_ROUNDING_EN"
_ROUNDING_LINE = f'os.environ.setdefault("{_ROUNDING}", "1")'
# Variables that already decide the rounding (XLA_USE_BF16/XLA_DOWNCAST_BF16 turn it on).
_ROUNDING_SET = (_ROUNDING, "XLA_USE_BF16", "XLA_DOWNCAST_BF16")
_BF16 = frozenset({"torch.bfloat16"})
_TRANSFORMER_FLAG = "--model-type=transformer"
_APPEND = f'os.environ["{_VARIABLE}"] = os.environ.get("{_VARIABLE}", "") + " {_TRANSFORMER_FLAG}"'
_EXPORT = f'export {_VARIABLE}="${_VARIABLE} {_TRANSFORMER_FLAG}"'
# Attention layers by qualified name; `torch.nn.X` and its defining module both resolve.
_TORCH_TRANSFORMERS = frozenset(
    {
        f"{module}.{name}"
        for module in ("torch.nn", "torch.nn.modules.transformer", "torch.nn.modules.activation")
        for name in (
            "Transformer",
            "TransformerEncoder",
            "TransformerDecoder",
            "TransformerEncoderLayer",
            "TransformerDecoderLayer",
            "MultiheadAttention",
        )
    }
    | {
        "torch.nn.functional.scaled_dot_product_attention",
        "torch.nn.functional.multi_head_attention_forward",
    }
)
# transformers model classes (`AutoModelForCausalLM`, `BertModel`, `LlamaForCausalLM`,
# `GPT2LMHeadModel`), not tokenizers, configs or trainers; torchvision's vision transformers.
_HF_MODEL = re.compile(r"^transformers\.(\w+\.)*(AutoModel\w*|\w+Model|\w+For[A-Z]\w*)$")
_VISION_TRANSFORMER = re.compile(r"^torchvision\.models\.(\w+\.)*(vit_|swin_|maxvit_)\w*$")
_AS_OS = re.compile(r"\bas\s+os\b")
_CONSTRUCTORS = (".from_pretrained", ".from_config")


# The words of a called name: `train_one_epoch`, `trainOneEpoch` -> train, one, epoch;
# `from_pretrained` -> from, pretrained (not a training call).
_WORD = re.compile(r"[a-z0-9]+|[A-Z][a-z0-9]*")
# Calls that run a model for its outputs, not to train it.
_INFERENCE_CALLS = frozenset({"generate", "pipeline", "eval", "inference_mode", "predict"})


class TransformerModelType(Rule):
    """## What it does
    For a script that builds a transformer model — `torch.nn.Transformer*`,
    `nn.MultiheadAttention`, `F.scaled_dot_product_attention`, a `transformers` model class
    (`AutoModel*`, `*Model`, `*For*`, also through `.from_pretrained`), torchvision's
    `vit_*`/`swin_*`, or a class of the repository's own that the program model finds to be a
    transformer (an `nn.Module` named BERT/GPT/Transformer/... whose own classes reach an
    attention class: NVIDIA's `modeling.BertForPreTraining`; `analysis/transformer_classes.py`)
    — appends `--model-type=transformer` to `NEURON_CC_FLAGS` right after the
    module's leading imports, before any other statement:

    `os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --model-type=transformer"`

    It appends (flags from the launcher are kept), and only when no string in the file mentions
    `--model-type` already (so a second run adds nothing and a chosen model type is respected).
    Where it cannot append exactly — the script assigns `NEURON_CC_FLAGS` outright later, or `os`
    names something else — it reports the line for the launcher instead. Nothing for `neuron`,
    and nothing in an entry script with no training step on any path: an inference script (it
    generates or predicts, and neither it nor what the program reaches from it trains), or a
    model module's `__main__` quick test that no other module imports (it prints a summary;
    the training script is elsewhere, and that is where the flag belongs).

    ## Why
    neuronx-cc optimises for `--model-type {generic,transformer,unet-inference}`; Neuron's BERT
    sample and optimum-neuron's Llama tutorial compile transformers with `--model-type=transformer`
    ([neuron-envvars, neuron-cc-cli], `compiler/neuronx-cc/api-reference-guide`). The variable is
    read when graphs are compiled, which happens on the first step marker, long after the module's
    imports ([neuron-envvars, neuron-cc-cli]; append, don't overwrite: [neuron-caching]).

    ## Example
    ```python
    import torch.nn as nn

    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(512, 8), 6)
    ```

    ## Use instead
    ```python
    import os
    import torch.nn as nn

    os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --model-type=transformer"
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(512, 8), 6)
    ```
    """

    code = "TRN341"
    name = "transformer-model-type"
    summary = "transformer model → `--model-type=transformer` in `NEURON_CC_FLAGS`"
    safety = Safety.SAFE
    severity = Severity.INFO
    sources = ("neuron-envvars", "neuron-cc-cli", "neuron-caching")


class CompilerFlagsOverwritten(Rule):
    """## What it does
    Reports `os.environ["NEURON_CC_FLAGS"] = ...` whose value does not read the variable's
    current value. Nothing is changed.

    ## Why
    It throws away the flags the launcher set (`--cache_dir`, `-O1`, `--model-type`,
    `--auto-cast=none` for autocast). Neuron's caching guide appends instead
    ([neuron-envvars, neuron-cc-cli, neuron-caching]).

    ## Example
    ```python
    os.environ["NEURON_CC_FLAGS"] = "--retry_failed_compilation"
    ```

    ## Use instead
    ```python
    os.environ["NEURON_CC_FLAGS"] = (
        os.environ.get("NEURON_CC_FLAGS", "") + " --retry_failed_compilation"
    )
    ```
    """

    code = "TRN342"
    name = "compiler-flags-overwritten"
    summary = "`NEURON_CC_FLAGS` assigned outright, dropping the launcher's flags (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("neuron-envvars", "neuron-cc-cli", "neuron-caching")


class CompileCache(Rule):
    """## What it does
    Notes, once per file with a training loop, where compiled graphs are cached when the file
    names no cache (`--cache_dir`, `NEURON_COMPILE_CACHE_URL`), with the launcher line to keep
    them. Nothing is changed; a note never fails a run.

    ## Why
    Every distinct graph is compiled by neuronx-cc, which takes minutes; the results go to
    `/var/tmp/neuron-compile-cache` unless `NEURON_COMPILE_CACHE_URL` or `--cache_dir=` (local or
    `s3://`) says otherwise, and `--cache_dir` wins. A cache shared between jobs or machines, and
    `neuron_parallel_compile` for a trial run, save that time ([neuron-envvars, neuron-cc-cli]). The
    trial run executes empty graphs with zero outputs, so Neuron's own BERT sample guards its loss
    checks, metrics and logging with `NEURON_EXTRACT_GRAPHS_ONLY`, which the tool sets ("can be
    checked in the training script to prevent checking of bad outputs during trial run",
    torch-neuronx environment variables); the note says so unless the file reads that variable
    already.

    ## Example
    ```python
    for x, y in loader:
        loss_fn(model(x), y).backward()
        optimizer.step()
    ```

    ## Use instead
    ```bash
    export NEURON_COMPILE_CACHE_URL=s3://my-bucket/neuron-cache   # or a shared local path
    neuron_parallel_compile torchrun --nproc_per_node=32 train.py   # optional trial compile
    ```
    """

    code = "TRN343"
    name = "compile-cache"
    summary = "note: where compiled graphs are cached, and the launcher line to share them"
    fixable = False
    safety = Safety.SAFE
    severity = Severity.INFO
    sources = ("neuron-envvars", "neuron-cc-cli")


class FullBf16StochasticRounding(Rule):
    """## What it does
    In an entry script that trains a model in full bf16 — `model.to(torch.bfloat16)`,
    `model.to(dtype=torch.bfloat16)` or `model.bfloat16()`, where `model` is a module (the file
    calls `model.parameters()`) — sets the runtime's stochastic rounding right after the
    module's leading imports, unless the launcher already did:

    `os.environ.setdefault("NEURON_RT_STOCHASTIC_ROUNDING_EN", "1")`

    Nothing where a string in the file already names the variable, or `XLA_USE_BF16` /
    `XLA_DOWNCAST_BF16` (which turn it on themselves). In a library module that trains, the
    line is reported for the launcher instead. XLA targets only.

    ## Why
    With bf16 weights, an update smaller than half a bf16 step rounds away and training stalls;
    Neuron's full-bf16 recipe turns on stochastic rounding in the runtime
    (`NEURON_RT_STOCHASTIC_ROUNDING_EN=1`; [neuron-bf16, xla-amp, neuron-envvars, neuron-cc-cli],
    [neuron-bf16]; Neuron's BERT port sets it when it casts the model).
    The runtime reads it when it starts, after the imports.

    ## Example
    ```python
    import torch

    model = build_model().to(torch.bfloat16)
    optimizer = torch.optim.AdamW(model.parameters())
    ```

    ## Use instead
    ```python
    import os
    import torch

    os.environ.setdefault("NEURON_RT_STOCHASTIC_ROUNDING_EN", "1")
    model = build_model().to(torch.bfloat16)
    optimizer = torch.optim.AdamW(model.parameters())
    ```
    """

    code = "TRN504"
    name = "full-bf16-stochastic-rounding"
    summary = "full-bf16 model → `NEURON_RT_STOCHASTIC_ROUNDING_EN=1` in the entry script"
    safety = Safety.SAFE
    severity = Severity.WARNING
    sources = ("neuron-bf16", "xla-amp", "neuron-envvars", "neuron-cc-cli")


class ProcessLevelInLibrary(Rule):
    """## What it does
    In a module that is not an entry script (no `if __name__ == "__main__":`, no arguments
    parsed and no training at the top level: a module of a package that only defines classes
    and functions) but that trains, reports the process-level change a script would get — here
    `--model-type=transformer` in `NEURON_CC_FLAGS` — as the line for the launcher, instead of
    writing it into the module. A library module that does not train gets nothing.

    ## Why
    Environment variables, seeds and compiler flags belong to the process: written into a
    library module they run at import time, in every program that imports it, whatever model it
    compiles (TRN341 fired in 102 of 500 `transformers` modules before the training profile told
    it which files are scripts). The launcher or the entry script sets them once
    ([neuron-envvars, neuron-cc-cli]: "launcher only").

    ## Example
    ```python
    # mypackage/training.py, imported by the launch script
    def train(model, loader):
        ...
    ```

    ## Use instead
    ```sh
    export NEURON_CC_FLAGS="$NEURON_CC_FLAGS --model-type=transformer"
    python launch.py
    ```
    """

    code = "TRN351"
    name = "process-level-in-library"
    summary = "library module: compiler flags go to the launcher, not the module (report only)"
    fixable = False
    safety = Safety.SAFE
    severity = Severity.INFO
    sources = ("neuron-envvars", "neuron-cc-cli")


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _strings(module: cst.Module) -> list[str]:
    """The text of every string of the module (a bytes literal counts as ""), from the module's
    node lists that every pass shares (``find``), not a walk of its own."""
    found: list[str] = []
    for node in find(module, cst.SimpleString, cst.FormattedStringText):
        if isinstance(node, cst.FormattedStringText):
            found.append(node.value)
        else:
            value = node.evaluated_value
            found.append(value if isinstance(value, str) else "")
    return found


# -- the first stage (CompilerFlags.candidate) ---------------------------------------------------
def _may_have_evidence(facts: FileFacts) -> bool:
    """Whether a call or class base may resolve to a transformer (``_transformer_evidence``)."""
    if may_resolve(facts, _TORCH_TRANSFORMERS):
        return True
    for name in facts.qualified:
        if name.startswith(("transformers.", "torchvision.")):
            for suffix in _CONSTRUCTORS:
                name = name.removesuffix(suffix)
            if _HF_MODEL.match(name) or _VISION_TRANSFORMER.match(name):
                return True
    # `transformers = ...` bound without an import: LibCST names its attributes all the same.
    return not facts.global_names.isdisjoint({"transformers", "torchvision"})


def _mentions(facts: FileFacts, needles: tuple[str, ...]) -> bool:
    """Whether a string LibCST sees (``_strings``) surely holds one of ``needles``: a string
    constant that does and is spelled so in the text (the ast merges `"a" "b"` into one
    constant, which LibCST keeps as two strings)."""
    return any(n in s and s in facts.text for s in facts.strings for n in needles)


def _is_import_line(statement: cst.BaseStatement, index: int) -> bool:
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    if index == 0 and len(statement.body) == 1 and isinstance(statement.body[0], cst.Expr):
        return isinstance(statement.body[0].value, cst.SimpleString | cst.ConcatenatedString)
    return all(isinstance(small, cst.Import | cst.ImportFrom) for small in statement.body)


class CompilerFlags(Pass):
    name = "compiler-flags"
    rules = (
        TransformerModelType,
        CompilerFlagsOverwritten,
        CompileCache,
        ProcessLevelInLibrary,
        FullBf16StochasticRounding,
    )
    needles = (
        "Transformer",
        "Attention",
        "attention",
        "transformers",
        "torchvision",
        _VARIABLE,
        "backward",
        "step",
        "bfloat16",
    )

    @classmethod
    def asked_by(cls, program: ModuleView) -> bool:
        # TRN341 for a transformer class of the repository's own (another module's, maybe).
        return program.role == "entry" and bool(program.transformers)

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        if not target.is_xla:
            return False  # visit_Module walks nothing
        # TRN342: `os.environ["NEURON_CC_FLAGS"] = ...` (a whole string constant as the key).
        if _VARIABLE in facts.strings and may_resolve(facts, ("os.environ",)):
            return True
        # TRN343: a training loop, where no string names a cache.
        if (
            facts.loops
            and (
                not facts.calls.isdisjoint(("backward", "optimizer_step", "step"))
                # `loss_scaler(loss, optimizer)`: its `__call__` steps (step_scan's train loop)
                or any(SCALER_NAME.search(call) for call in facts.calls)
            )
            and not _mentions(facts, ("--cache_dir", "NEURON_COMPILE_CACHE_URL"))
            and any(loop.train for loop in step_scan(facts).loops)
        ):
            return True
        # TRN341 in an entry script, TRN351 in a library module that trains; neither where a
        # string already mentions --model-type.
        profile = facts.profile
        if not (profile.is_entry_script or profile.trains):
            return False
        # TRN504: a module cast to bf16, where no string decides the rounding already.
        if (
            "bfloat16" in facts.identifiers
            and "parameters" in facts.calls
            and not _mentions(facts, _ROUNDING_SET)
        ):
            return True
        return not _mentions(facts, ("--model-type",)) and _may_have_evidence(facts)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Every transformer model the module builds or subclasses, in order, with the name it
        # is bound to (None: a class base, or a model not bound to a plain name).
        self._evidence: list[tuple[cst.CSTNode, str, str | None]] = []
        self._bound_calls: dict[cst.Call, str] = {}  # `x = Model.from_pretrained(...)` -> "x"
        self._frozen: set[str] = set()  # names whose parameters are frozen
        self._why: dict[str, str] = {}  # a class of the repository's own -> why it is one
        self._overwrites: list[cst.Assign] = []
        self._module_strings: list[str] = []
        self._bf16_casts: list[tuple[cst.Call, str]] = []  # (call, receiver name)
        self._modules: set[str] = set()  # names whose .parameters() is called

    def visit_Module(self, node: cst.Module) -> bool:
        if not self.target.is_xla:
            return False  # TorchNeuron's compiler options are not NEURON_CC_FLAGS ([neuron-xla-eos, torchneuron-overview, neuron-envvars, neuron-cc-cli])
        strings = _strings(node)
        if not any("--cache_dir" in s or "NEURON_COMPILE_CACHE_URL" in s for s in strings):
            train = [i for i in find_step_loops(node).values() if i.kind == "train"]
            if train:
                anchor = train[0].node
                self.report(
                    anchor,
                    CompileCache,
                    "compiled graphs go to /var/tmp/neuron-compile-cache on this host: to reuse "
                    "them across jobs or machines, launch with `export "
                    "NEURON_COMPILE_CACHE_URL=<shared path or s3://bucket/prefix>`"
                    + (
                        ""
                        if any("NEURON_EXTRACT_GRAPHS_ONLY" in s for s in strings)
                        else "; to compile every graph before the run, `neuron_parallel_compile "
                        "<launch line>` makes a short trial run whose outputs are zeros: skip "
                        "checks of values, metrics and logging there with `if not "
                        'os.environ.get("NEURON_EXTRACT_GRAPHS_ONLY"):`'
                    ),
                    False,
                )
        self._module_strings = strings
        return True

    # -- evidence ------------------------------------------------------------------------------
    def _transformer_evidence(self, node: cst.BaseExpression) -> str | None:
        # The repository's own transformer classes, which the program model names
        # (``analysis/transformer_classes.py``): `modeling.BertForPreTraining(config)`.
        spelled = dotted(node)
        own = self.run.program.transformers.get(spelled) if spelled else None
        if own is not None:
            path, _, chain = own.partition(": ")
            self._why[spelled] = f", an nn.Module of {path} that reaches attention: {chain}"
            return spelled
        for name in self.module_names(node):
            for suffix in _CONSTRUCTORS:
                name = name.removesuffix(suffix)
            if (
                name in _TORCH_TRANSFORMERS
                or _HF_MODEL.match(name)
                or _VISION_TRANSFORMER.match(name)
            ):
                return name
        return None

    def _note(self, node: cst.CSTNode, name: str | None) -> None:
        if name is not None:
            bound = self._bound_calls.get(node) if isinstance(node, cst.Call) else None
            self._evidence.append((node, name, bound))

    def _never_trains(self) -> bool:
        """An entry script with no training step on any path: no step is in it or reached from
        it (it runs no backward pass or framework trainer, the program finds no step of its
        elsewhere, and it calls nothing named for training: `train(model)`, `fit`, an
        optimizer step), and it is an inference script (it generates or predicts:
        `model.generate`, a transformers `pipeline`, `model.eval()`) or an entry point of the
        program that no other module imports (a model module's `__main__` that prints a
        summary: ViT-CIFAR's dw_vit.py, which the training script does not import)."""
        program = self.run.program
        if self.run.profile.trains or program.steps or program.steps_elsewhere:
            return False
        facts = self.run.facts
        if facts is None:
            return False
        words = {w.lower() for name in facts.calls for w in _WORD.findall(name)}
        if any(w.startswith("train") or w in ("fit", "backward", "step") for w in words):
            return False
        if program.role == "entry" and not program.imported:
            return True  # the program model followed its run: it reaches no step
        return not facts.calls.isdisjoint(_INFERENCE_CALLS)

    def _trained_evidence(self) -> tuple[cst.CSTNode, str] | None:
        """The first transformer the program trains: not one whose parameters it freezes (a
        frozen text encoder beside a trained diffusion UNet is not what the compiler is told
        to optimise for)."""
        for node, name, bound in self._evidence:
            if bound is None or bound not in self._frozen:
                return node, name
        return None

    def _note_freeze(self, call: cst.Call) -> None:
        """`x.requires_grad_(False)`, and `p.requires_grad_(False)` in `for p in
        x.parameters()` (the loop form is read in visit_For)."""
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "requires_grad_"):
            return
        if len(call.args) != 1 or not (
            isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == "False"
        ):
            return
        receiver = dotted(func.value)
        if receiver is not None:
            self._frozen.add(receiver)

    def visit_For(self, node: cst.For) -> None:
        # `for p in text_encoder.parameters(): p.requires_grad = False` (or requires_grad_).
        over = node.iter
        if not (
            isinstance(over, cst.Call)
            and isinstance(over.func, cst.Attribute)
            and over.func.attr.value in ("parameters", "named_parameters")
            and isinstance(node.target, cst.Name | cst.Tuple)
        ):
            return
        owner = dotted(over.func.value)
        body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
        for statement in body:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue  # an `if` or a nested loop in the body: not the plain freezing loop
            for small in statement.body:
                frozen = (
                    isinstance(small, cst.Assign)
                    and isinstance(small.targets[0].target, cst.Attribute)
                    and small.targets[0].target.attr.value == "requires_grad"
                    and isinstance(small.value, cst.Name)
                    and small.value.value == "False"
                ) or (
                    isinstance(small, cst.Expr)
                    and isinstance(small.value, cst.Call)
                    and isinstance(small.value.func, cst.Attribute)
                    and small.value.func.attr.value == "requires_grad_"
                    and len(small.value.args) == 1
                    and isinstance(small.value.args[0].value, cst.Name)
                    and small.value.args[0].value.value == "False"
                )
                if frozen and owner is not None:
                    self._frozen.add(owner)

    def visit_Call(self, node: cst.Call) -> None:
        self._note(node, self._transformer_evidence(node.func))
        self._note_freeze(node)
        func = node.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            if func.attr.value == "parameters":
                self._modules.add(func.value.value)
            elif self._casts_to_bf16(node):
                self._bf16_casts.append((node, func.value.value))

    def _casts_to_bf16(self, call: cst.Call) -> bool:
        """`x.bfloat16()`, `x.to(torch.bfloat16)` or `x.to(dtype=torch.bfloat16)`."""
        func = call.func
        if not isinstance(func, cst.Attribute):
            return False
        if func.attr.value == "bfloat16":
            return not call.args
        if func.attr.value != "to" or len(call.args) != 1 or call.args[0].star:
            return False
        arg = call.args[0]
        if arg.keyword is not None and arg.keyword.value != "dtype":
            return False
        return not self.module_names(arg.value).isdisjoint(_BF16)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        for base in node.bases:
            self._note(base.value, self._transformer_evidence(base.value))

    def _reads_flags(self, node: cst.CSTNode) -> bool:
        class _Reads(PlainVisitor):
            found = False

            def visit_SimpleString(self, string: cst.SimpleString) -> None:
                if string.evaluated_value == _VARIABLE:
                    self.found = True

        reads = _Reads()
        visit(node, reads)
        return reads.found

    def visit_Assign(self, node: cst.Assign) -> None:
        # `model = build().to(torch.bfloat16)`: the module is the name it is bound to.
        value = node.value
        if isinstance(value, cst.Call) and len(node.targets) == 1:
            bound = dotted(node.targets[0].target)
            call: cst.BaseExpression = value
            while bound is not None and isinstance(call, cst.Call):  # `M.from_pretrained().to(d)`
                self._bound_calls[call] = bound
                call = call.func.value if isinstance(call.func, cst.Attribute) else call.func
        if (
            isinstance(value, cst.Call)
            and len(node.targets) == 1
            and isinstance(node.targets[0].target, cst.Name)
            and not (
                isinstance(value.func, cst.Attribute) and isinstance(value.func.value, cst.Name)
            )
            and self._casts_to_bf16(value)
        ):
            self._bf16_casts.append((value, node.targets[0].target.value))
        for target in node.targets:
            subscript = target.target
            if not (
                isinstance(subscript, cst.Subscript)
                and self.is_any(subscript.value, {"os.environ"})
                and len(subscript.slice) == 1
                and isinstance(subscript.slice[0].slice, cst.Index)
            ):
                continue
            key = subscript.slice[0].slice.value
            if isinstance(key, cst.SimpleString) and key.evaluated_value == _VARIABLE:
                if not self._reads_flags(node.value):
                    self._overwrites.append(node)

    # -- the edit ------------------------------------------------------------------------------
    def _os_is_module(self, module: cst.Module) -> bool:
        """Whether the global name ``os`` is unbound or bound only by ``import os``."""
        facts = self.run.facts
        if facts is not None:  # what the scopes would say, from the file's names
            table = facts.names
            if "os" not in table.bound and "os" not in table.imported:
                return True
            if table.imports.get("os") == "os" and not _AS_OS.search(facts.text):
                return True  # every import of it is `import os` (not `import os as os`)
        scope = self.get_metadata(ScopeProvider, module, None)
        if scope is None:
            return False
        for assignment in scope["os"]:
            node = getattr(assignment, "node", None)
            if not (
                isinstance(node, cst.Import)
                and any(alias.asname is None and _code(alias.name) == "os" for alias in node.names)
            ):
                return False
        return True

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        for assign in self._overwrites:
            self.report(
                assign.value,
                CompilerFlagsOverwritten,
                f"this replaces the {_VARIABLE} set by the launcher (cache dir, -O1, model "
                f'type, --auto-cast): append instead, `os.environ["{_VARIABLE}"] = '
                f'os.environ.get("{_VARIABLE}", "") + " <flags>"`',
                False,
            )
        lines = self._rounding_line(original_node)
        flag = self._model_type_line(original_node)
        if flag is not None:
            lines.insert(0, flag)
        if not lines:
            return updated_node
        body = list(updated_node.body)
        index = 0
        while index < len(body) and _is_import_line(body[index], index):
            index += 1
        self.add_import("os")
        new = [cst.parse_statement(line + "\n") for line in lines]
        if index < len(body):
            # The next statement's comments and blank lines stay with it, below the lines.
            new[0] = new[0].with_changes(leading_lines=[cst.EmptyLine()])
        body[index:index] = new
        return updated_node.with_changes(body=body)

    def _rounding_line(self, module: cst.Module) -> list[str]:
        """TRN504: the stochastic-rounding line to insert, if the file trains a bf16 module."""
        casts = [(c, name) for c, name in self._bf16_casts if name in self._modules]
        if not casts or any(v in s for s in self._module_strings for v in _ROUNDING_SET):
            return []
        call, name = casts[0]
        found = f"`{name}` is trained in full bf16"
        if not self.run.profile.is_entry_script:
            if self.run.profile.trains:
                self.report(
                    call,
                    FullBf16StochasticRounding,
                    f"{found} in a library module: launch with "
                    f"`export {_ROUNDING}=1` (stochastic rounding), not here",
                    False,
                )
            return []
        if not self._os_is_module(module):
            self.report(
                call,
                FullBf16StochasticRounding,
                f"{found}: turn on stochastic rounding with `export {_ROUNDING}=1`; the name "
                "`os` is bound to something else here, so add it yourself",
                False,
            )
            return []
        if not self.report(
            call,
            FullBf16StochasticRounding,
            f"{found}: `{_ROUNDING_LINE}` added after the imports (stochastic rounding keeps "
            "updates smaller than a bf16 step)",
            True,
        ):
            return []
        return [_ROUNDING_LINE]

    def _model_type_line(self, module: cst.Module) -> str | None:
        """TRN341 (TRN351 in a library module): the NEURON_CC_FLAGS append to insert."""
        trained = self._trained_evidence()
        if trained is None or any("--model-type" in s for s in self._module_strings):
            return None
        evidence, name = trained
        found = f"transformer model (`{name}`{self._why.get(name, '')})"
        if self.run.program.imported and not self.run.profile.trains:
            # A model module that other modules import, whose `__main__` block is a quick test
            # (vit-pytorch's vit_with_decorr.py): setting a process-level flag at its import
            # would set it in every program that imports it.
            return None
        if self.run.profile.is_entry_script and self._never_trains():
            # An inference script (llm-qlora's inference.py: load, generate), or a model
            # module's own quick test that nothing imports: `--model-type` tunes the
            # compilation of a training graph, and no path from here reaches one.
            return None
        if not self.run.profile.is_entry_script:
            # Process-level: never written into a module that others import.
            if self.run.profile.trains:
                self.report(
                    evidence,
                    ProcessLevelInLibrary,
                    f"{found} in a library module: compile with {_TRANSFORMER_FLAG} from the "
                    f"launcher (`{_EXPORT}`) or the entry script, not here",
                    False,
                )
            return None
        why = None
        if self._overwrites:
            why = f"the script assigns {_VARIABLE} outright later, which would drop an append"
        elif not self._os_is_module(module):
            why = "the name `os` is bound to something else here"
        if why is not None:
            self.report(
                evidence,
                TransformerModelType,
                f"{found}: compile with {_TRANSFORMER_FLAG}; {why}, so add it yourself "
                f"(launcher: `{_EXPORT}`)",
                False,
            )
            return None
        if not self.report(
            evidence,
            TransformerModelType,
            f"{found}: `{_TRANSFORMER_FLAG}` appended to {_VARIABLE} after the imports "
            f"(launcher equivalent: `{_EXPORT}`)",
            True,
        ):
            return None
        return _APPEND
