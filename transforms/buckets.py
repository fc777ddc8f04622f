"""Pad inputs to a few fixed shapes, so that each shape compiles once ([xla-recompilation, neuron-emod025, xla-loader, neuron-guide, xla-recompile-sources]).

The sizes come from configuration: ``buckets`` (an explicit list) or ``bucket-multiple``
(default 64). Hugging Face tokenizers and collators learn ``pad_to_multiple_of`` or
``padding="max_length"``; ``pad_sequence`` in a collate function pads up to the next bucket
through a small helper added once per module; training loaders get ``drop_last=True`` so the last
batch has the same size. Padding changes what the model sees, so every fix is ``review``, and
where a mask or the loss's ignore index is missing the pass says so.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider, PositionProvider, ScopeProvider
from trncodemod.transforms.buckets_labels import LabelSources
from trncodemod.transforms.buckets_rules import (
    RULES,
    CollatorPadding,
    EvalLoaderPartialBatch,
    LabelPaddingNotIgnored,
    PaddingWithoutMask,
    PadSequenceBucket,
    TokenizerPadding,
    TokenizerUnpadded,
    TrainLoaderDropLast,
)
from trncodemod.transforms.buckets_table import (
    COLLATOR_MODULES,
    COLLATOR_NAMES,
    COLLATORS,
    DATALOADER,
    DEFAULT_IGNORE_INDEX,
    EVAL_NAME,
    LABELS,
    LOADER_WRAPPERS,
    LOSSES,
    MASK_NAMES,
    PAD_INDEX,
    PAD_SEQUENCE,
    PAD_SEQUENCE_PARAMS,
    RECURRENT,
    TOKENIZER_CLASS,
    TOKENIZER_METHODS,
    TOKENIZER_NAMES,
    TRAIN_NAME,
)

from trncodemod.analysis.dataset_sizes import (
    FACTORIES,
    TENSOR_DATASET,
    first_dimension,
    range_length,
    table_size,
)
from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.loader_scan import LOADER_POSITIONS, may_need_drop_last
from trncodemod.analysis.loops import dotted, find_step_loops, is_backward, is_optimizer_step
from trncodemod.analysis.nodes import find, is_main_test
from trncodemod.analysis.program import LONE
from trncodemod.passes import Pass
from trncodemod.rewriting.calls import append_keyword
from trncodemod.targets import Target

# -- the helper the pass adds -----------------------------------------------------------------
HELPER = "_pad_to_bucket"
_HELPER_MARK = "trncodemod"


def helper_source(buckets: tuple[int, ...], multiple: int) -> str:
    """The module-level helper that replaces ``pad_sequence`` (it needs ``import torch``)."""
    if buckets:
        sizes = ", ".join(str(size) for size in buckets)
        choose = f"bucket = next((size for size in {buckets!r} if size >= length), length)"
        what = f"the next of {sizes} (a longer batch keeps its length)"
    else:
        choose = f"bucket = -(-length // {multiple}) * {multiple}"
        what = f"the next multiple of {multiple}"
    return f'''def {HELPER}(sequences, batch_first=False, padding_value=0.0):
    """pad_sequence, then pad the time dimension with padding_value
    up to {what}.

    Batch shapes repeat, so each compiles once ({_HELPER_MARK} TRN214).
    """
    padded = torch.nn.utils.rnn.pad_sequence(
        sequences, batch_first=batch_first, padding_value=padding_value
    )
    time_dim = 1 if batch_first else 0
    length = padded.shape[time_dim]
    {choose}
    if bucket == length:
        return padded
    widths = (0, 0) * (padded.dim() - 1 - time_dim) + (0, bucket - length)
    return torch.nn.functional.pad(padded, widths, value=padding_value)
'''


# -- small readers of call arguments -----------------------------------------------------------


def _argument(call: cst.Call, keyword: str, position: int | None) -> cst.Arg | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if position is not None and position < len(positional):
        return positional[position]
    return None


def _positional_count(call: cst.Call) -> int:
    return sum(1 for a in call.args if a.keyword is None and not a.star)


def _has_star(call: cst.Call, star: str) -> bool:
    return any(a.star == star for a in call.args)


_UNKNOWN = object()


def _split_test(node: cst.BaseExpression) -> bool:
    """``shuffle=`` given a test of which split the loader is for: a comparison with a string
    that names the training split (`split == "train"`, `"train" in mode`), or a flag so named
    (`is_train`, `training`). Not a sampler's absence (`shuffle=(train_sampler is None)`)."""
    if isinstance(node, cst.Comparison):
        return any(
            isinstance(n, cst.SimpleString) and "train" in str(n.evaluated_value).lower()
            for n in (node.left, *(c.comparator for c in node.comparisons))
        )
    name = node.attr.value if isinstance(node, cst.Attribute) else getattr(node, "value", None)
    return name in ("is_train", "train", "training", "is_training")


def _literal(node: cst.BaseExpression | None) -> object:
    """The value of a constant argument (bool, None, str, int), else ``_UNKNOWN``."""
    if node is None:
        return _UNKNOWN
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[node.value]
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value
    if isinstance(node, cst.Integer):
        return int(node.value)
    if (
        isinstance(node, cst.UnaryOperation)
        and isinstance(node.operator, cst.Minus)
        and isinstance(node.expression, cst.Integer)
    ):
        return -int(node.expression.value)
    return _UNKNOWN


def _padding_kind(value: object) -> str:
    """'longest', 'max_length', 'none' or 'unknown' for a `padding=` value."""
    if value is True or value == "longest":
        return "longest"
    if value == "max_length":
        return "max_length"
    if value is False or value == "do_not_pad" or value is None:
        return "none"
    return "unknown"


def _truncates(value: object) -> bool:
    return value is True or (isinstance(value, str) and value != "do_not_truncate")


def _setkeyword(call: cst.Call, original: cst.Arg, value: cst.BaseExpression) -> cst.Call:
    """Replace the value of ``original`` (an arg of the original call, same index in ``call``)."""
    name = original.keyword.value if original.keyword else None
    return call.with_changes(
        args=[
            arg.with_changes(value=value) if arg.keyword and arg.keyword.value == name else arg
            for arg in call.args
        ]
    )


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


class PadToBuckets(Pass):
    name = "buckets"
    rules = RULES
    needles = ("tok", "Tok", "DataCollator", "pad_sequence", "DataLoader")

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # Every finding and edit is made in leave_Call on one of four calls (visit_Module only
        # reads; leave_Module adds the helper only after a pad_sequence rewrite).
        # A tokenizer (_is_tokenizer): a name or attribute `tokenizer`/`tok` called itself or
        # through a padding method, or a name assigned from `<...Tokenizer...>.from_pretrained`.
        if not facts.calls.isdisjoint(TOKENIZER_NAMES):
            return True
        if facts.spells(*TOKENIZER_NAMES) and not facts.calls.isdisjoint(TOKENIZER_METHODS):
            return True
        if "from_pretrained" in facts.calls and any(
            "Tokenizer" in name for name in facts.identifiers
        ):
            return True
        # A collator or pad_sequence, by qualified name (aliases are imports, so reached).
        if facts.reaches(*COLLATOR_NAMES, *PAD_SEQUENCE):
            return True
        # A DataLoader call that _loader_call does not leave alone by its arguments.
        return facts.reaches(*DATALOADER) and may_need_drop_last(facts.tree)

    def _one_more_shape(self) -> str:
        """What one more batch shape costs on the target: a lazy graph on XLA; on TorchNeuron
        (eager) its ops compile again, and a `torch.compile(backend="neuron")` region, which
        needs static shapes, compiles once more ([torchneuron-overview])."""
        if self.target.is_xla:
            return "compiles one more graph"
        return (
            "is one more shape: its eager ops compile again, and a compiled region "
            '(`torch.compile(backend="neuron", dynamic=False)`) compiles once more'
        )

    # -- what the module holds, found before any rewrite -----------------------------------------
    def visit_Module(self, node: cst.Module) -> None:
        self._loader_roles: dict[cst.Call, tuple[str, str]] = {}
        self._collate_names: set[str] = set()
        self._collate_lambdas: set[cst.Lambda] = set()
        self._ignore_indices: set[int] = set()
        self._padding_later = False
        self._helper_state = "absent"  # absent | present | taken
        self._helper_needed = False
        for statement in node.body:
            if isinstance(statement, cst.FunctionDef) and statement.name.value == HELPER:
                doc = statement.get_docstring() or ""
                self._helper_state = "present" if _HELPER_MARK in doc else "taken"
        self._recurrent = ""  # a recurrent module the module builds
        self._masked = False  # a mask of the pads is built and handed on (_masks_pads)
        self._helper_before: cst.CSTNode | None = None  # the top-level statement using it
        self._imports_torch = any(
            isinstance(small, cst.Import)
            and any(a.asname is None and _code(a.name) == "torch" for a in small.names)
            for statement in node.body
            if isinstance(statement, cst.SimpleStatementLine)
            for small in statement.body
        )
        for call in find(node, cst.Call):
            self._scan_call(call)
        self._masked = self._masked or _masks_pads(node)
        # Text cut into fixed-length blocks after tokenizing (`group_texts` in HF's run_clm):
        # every sequence has the block's length, whatever the tokenizer did.
        self._padding_later = self._padding_later or _makes_fixed_blocks(node)
        for loop in find_step_loops(node).values():
            if loop.iterable is None:
                continue
            line = self.get_metadata(PositionProvider, loop.node).start.line
            for loader in self._loaders_of(loop.iterable, depth=0):
                if self._loader_roles.get(loader, ("",))[0] != "train":
                    kind = "training" if loop.kind == "train" else "evaluation"
                    why = f"iterated by the {kind} loop at line {line}"
                    self._loader_roles[loader] = (loop.kind, why)
        self._demo_loaders = self._main_demo_loaders(node)
        if not self._ignore_indices:
            self._ignore_indices.add(DEFAULT_IGNORE_INDEX)
        self._labels = LabelSources(self, node)

    def _main_demo_loaders(self, module: cst.Module) -> set[cst.Call]:
        """Loaders of a module that trains nothing (no optimizer step, no backward anywhere: a
        dataset module), built in its ``if __name__ == "__main__":`` block, or anywhere in a
        script no other given module imports, and iterated only by loops there that are no step
        loop: a demo that plots or prints a few batches on the CPU. No compiled step sees their
        batches, so their last partial batch costs nothing."""
        if any(is_optimizer_step(c) or is_backward(c) for c in find(module, cst.Call)):
            return set()
        guards: list[cst.CSTNode] = [
            s for s in module.body if isinstance(s, cst.If) and is_main_test(s.test)
        ]
        if self.run.program is not LONE and not self.run.program.imported:
            # A module no other module of the program imports: its top level runs only as a
            # script, its `__main__` (a tutorial that prints a few batches of a loader).
            guards.append(module)
        steps = find_step_loops(module)
        iterated: dict[cst.Call, bool] = {}  # loader -> every loop over it is a demo loop
        for loop in find(module, cst.For):
            demo = loop not in steps and any(_contains(guard, loop) for guard in guards)
            for loader in self._loaders_of(loop.iter, depth=0):
                iterated[loader] = iterated.get(loader, True) and demo
        return {
            loader
            for loader, demo in iterated.items()
            if demo and any(_contains(guard, loader) for guard in guards)
        }

    def _line(self, node: cst.CSTNode) -> int:
        return self.get_metadata(PositionProvider, node).start.line

    def _scan_call(self, call: cst.Call) -> None:
        if not self._recurrent and self.is_any(call.func, RECURRENT):
            self._recurrent = _code(call.func)
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value in MASK_NAMES:
                self._masked = True
            if arg.keyword is not None and arg.keyword.value == "collate_fn":
                if isinstance(arg.value, cst.Name):
                    self._collate_names.add(arg.value.value)
                elif isinstance(arg.value, cst.Lambda):
                    self._collate_lambdas.add(arg.value)
        if self.is_any(call.func, LOSSES):
            index = _argument(call, "ignore_index", None)
            value = _literal(index.value) if index else DEFAULT_IGNORE_INDEX
            if isinstance(value, int) and not isinstance(value, bool):
                self._ignore_indices.add(value)
        if (
            self._collator(call)
            or self.is_any(call.func, PAD_SEQUENCE)
            or self._tokenizer_method(call) == "pad"
        ):
            self._padding_later = True

    # -- classification ----------------------------------------------------------------------
    def _collator(self, call: cst.Call) -> str | None:
        for name in COLLATORS:
            if self.is_any(call.func, {f"{module}.{name}" for module in COLLATOR_MODULES}):
                return name
        return None

    def _tokenizer_method(self, call: cst.Call) -> str | None:
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in TOKENIZER_METHODS:
            method, receiver = func.attr.value, func.value
        else:
            method, receiver = "__call__", func
        return method if self._is_tokenizer(receiver) else None

    def _is_tokenizer(self, node: cst.BaseExpression) -> bool:
        name = dotted(node)
        if name is None:
            return False
        if name.rsplit(".", 1)[-1] in TOKENIZER_NAMES:
            return True
        if not isinstance(node, cst.Name):
            return False
        for value in self._assigned_values(node):
            if isinstance(value, cst.Call) and m.matches(
                value.func, m.Attribute(attr=m.Name("from_pretrained"))
            ):
                names = {dotted(value.func.value) or ""} | self.qualified_names(value.func)  # type: ignore[union-attr]
                if any(TOKENIZER_CLASS.search(name) for name in names):
                    return True
        return False

    def _assigned_values(self, name: cst.Name) -> Iterator[cst.BaseExpression]:
        """The values assigned (``x = value``) to the variable ``name`` refers to."""
        facts = self.run.facts
        if facts is not None and name.value not in facts.assigned:
            return  # no assignment anywhere binds it to a value
        found = self.visible_assignments(name)
        if found is not None:
            yield from (statement.value for statement in found if statement is not None)  # type: ignore[misc]
            return
        scope = self.get_metadata(ScopeProvider, name, None)
        if scope is None:
            return
        for assignment in scope[name.value]:
            target = getattr(assignment, "node", None)
            parent = self.get_metadata(ParentNodeProvider, target, None) if target else None
            owner = self.get_metadata(ParentNodeProvider, parent, None) if parent else None
            if isinstance(parent, cst.AssignTarget) and isinstance(owner, cst.Assign):
                yield owner.value
            elif isinstance(parent, cst.AnnAssign) and parent.value is not None:
                yield parent.value

    def _loaders_of(self, node: cst.BaseExpression, depth: int) -> list[cst.Call]:
        """The DataLoader calls a loop's iterable comes from."""
        if depth > 6:
            return []
        if isinstance(node, cst.Call):
            if self.is_any(node.func, DATALOADER):
                return [node]
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "per_device_loader":
                return self._loaders_of(func.value, depth + 1)
            name = dotted(func) or ""
            if name.rsplit(".", 1)[-1] in LOADER_WRAPPERS and node.args:
                return self._loaders_of(node.args[0].value, depth + 1)
            return []
        if isinstance(node, cst.Name):
            found: list[cst.Call] = []
            for value in self._assigned_values(node):
                found += self._loaders_of(value, depth + 1)
            return found
        return []

    def _role_by_name(self, call: cst.Call) -> tuple[str, str] | None:
        """A loader's role from its variable's name, else from its dataset argument's name."""
        parent = self.get_metadata(ParentNodeProvider, call, None)
        candidates: list[tuple[str, cst.BaseExpression]] = []
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
            candidates.append(("named", parent.targets[0].target))
        elif isinstance(parent, cst.AnnAssign):
            candidates.append(("named", parent.target))
        dataset = _argument(call, "dataset", 0)
        if dataset is not None:
            candidates.append(("its dataset is", dataset.value))
        for label, node in candidates:
            last = (dotted(node) or "").rsplit(".", 1)[-1]
            train, evaluation = bool(TRAIN_NAME.search(last)), bool(EVAL_NAME.search(last))
            if train != evaluation:
                return ("train" if train else "eval"), f"{label} `{last}`"
        return None

    def _in_collate_function(self, node: cst.CSTNode) -> bool | None:
        """True inside a collate function, None inside the helper itself, else False."""
        current = self.get_metadata(ParentNodeProvider, node, None)
        while current is not None:
            if isinstance(current, cst.Lambda) and current in self._collate_lambdas:
                return True
            if isinstance(current, cst.FunctionDef):
                name = current.name.value
                if name == HELPER:
                    return None
                if "collate" in name.lower() or name in self._collate_names:
                    return True
            if isinstance(current, cst.ClassDef) and "collat" in current.name.value.lower():
                return True
            current = self.get_metadata(ParentNodeProvider, current, None)
        return False

    # -- rewriting ---------------------------------------------------------------------------
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        method = self._tokenizer_method(original_node)
        if method is not None:
            return self._tokenizer_call(original_node, updated_node, method)
        collator = self._collator(original_node)
        if collator is not None:
            return self._collator_call(original_node, updated_node, collator)
        if self.is_any(original_node.func, PAD_SEQUENCE):
            return self._pad_sequence_call(original_node, updated_node)
        if self.is_any(original_node.func, DATALOADER):
            return self._loader_call(original_node, updated_node)
        return updated_node

    def _tokenizer_call(self, original: cst.Call, updated: cst.Call, method: str) -> cst.Call:
        position, default = TOKENIZER_METHODS[method]
        multiple = self.settings.bucket_multiple
        padding = _argument(original, "padding", position)
        # `*pair` fills the text arguments; only `**kwargs` can hide `padding`.
        unreadable = _has_star(original, "**")
        if padding is None and unreadable:
            self.report(
                original,
                TokenizerPadding,
                "tokenizer padding may come from **kwargs: make sure it is "
                f'`padding="max_length"` with `max_length`, or adds `pad_to_multiple_of={multiple}`',
                False,
            )
            return updated
        kind = _padding_kind(default if padding is None else _literal(padding.value))
        if kind == "unknown":
            self.report(
                original,
                TokenizerPadding,
                f"tokenizer padding is `{_code(padding.value)}`: the tool cannot tell it; "  # type: ignore[union-attr]
                f'use `padding="max_length"` with `max_length`, or add `pad_to_multiple_of={multiple}`',
                False,
            )
            return updated
        to_max_length = self._gets_max_length(original, kind)
        self._check_mask(original, padded=kind != "none" or to_max_length)
        if kind == "max_length":
            copy = self._labels.unmasked_copy(original)
            if copy is not None:
                self.report(
                    copy,
                    LabelPaddingNotIgnored,
                    f"`{_code(copy.body[0]).strip()}` copies the input ids the tokenizer pads to "
                    f"max_length (line {self._line(original)}) into the labels, and no pad "
                    "position is set to the loss's ignore index: the loss trains on pad tokens; "
                    "set the labels' pad positions to -100",
                    False,
                )
            return updated
        if kind == "longest" and _argument(original, "pad_to_multiple_of", None) is not None:
            return updated
        if kind == "none" and not to_max_length:
            if not self._padding_later:
                self.report(
                    original,
                    TokenizerUnpadded,
                    "tokenized without padding and no padding step found in this file: each "
                    'batch may get a new shape; pass `padding="max_length", max_length=N` here, '
                    f"or pad later with `pad_to_multiple_of={multiple}`",
                    False,
                )
            return updated
        fix = 'padding="max_length"' if to_max_length else f"pad_to_multiple_of={multiple}"
        copy = self._labels.unmasked_copy(original)
        if copy is not None:
            self.report(
                original,
                TokenizerPadding,
                f"tokenizer padding kept: its ids become the labels in "
                f"`{_code(copy.body[0]).strip()}` (line {self._line(copy)}) and no pad position "
                f"is set to the loss's ignore index, so `{fix}` would train the loss on pad "
                "tokens; set the labels' pad positions to -100 first, or pad in a collator that "
                "pads labels with -100 "
                f"(`DataCollatorForSeq2Seq(..., pad_to_multiple_of={multiple})`)",
                False,
            )
            return updated
        joined = self._labels.joined(original)
        if joined is not None:
            if not self._padding_later:
                self.report(
                    original,
                    TokenizerPadding,
                    f"tokenizer padding kept: its ids are joined with other tokens in "
                    f"`{_code(joined)}` (line {self._line(joined)}), so `{fix}` would put pad "
                    "tokens inside each sequence; pad after joining (in the collate function)",
                    False,
                )
            return updated
        if unreadable or (padding is not None and padding.keyword is None):
            self.report(
                original,
                TokenizerPadding,
                "tokenizer pads to the longest, but the call has positional padding or "
                f"**kwargs: add `{fix}` by hand",
                False,
            )
            return updated
        if to_max_length:
            implicit = _argument(original, "truncation", None) is None
            message = 'tokenizer has its own max_length → padding="max_length" (one shape)'
            if implicit:
                message += "; its implicit truncation made explicit with truncation=True"
            if not self.report(original, TokenizerPadding, message, True):
                return updated
            value = cst.SimpleString('"max_length"')
            if padding is not None:
                updated = _setkeyword(updated, padding, value)
            else:
                updated = append_keyword(updated, "padding", value)
            if implicit:
                updated = append_keyword(updated, "truncation", cst.Name("True"))
            return updated
        if self.settings.buckets:
            self.report(
                original,
                TokenizerPadding,
                "tokenizer pads to the longest and pad_to_multiple_of cannot express buckets "
                f"({self._bucket_list()}): pad to the next bucket in the collate function, or use "
                f'`padding="max_length", max_length={self.settings.buckets[-1]}`',
                False,
            )
            return updated
        if not self.report(
            original,
            TokenizerPadding,
            f"tokenizer pads to the longest → pad_to_multiple_of={multiple}",
            True,
        ):
            return updated
        return append_keyword(updated, "pad_to_multiple_of", cst.Integer(str(multiple)))

    def _gets_max_length(self, call: cst.Call, kind: str) -> bool:
        """Whether padding to the call's own max_length keeps every row the same length: the
        call truncates, explicitly or implicitly (max_length without padding or truncation)."""
        max_length = _argument(call, "max_length", None)
        # `max_length=None` pads to the model's maximum (512 for BERT), not to a length the
        # script chose: no fixed size of the script's own to pad to.
        if (
            kind not in ("longest", "none")
            or max_length is None
            or _literal(max_length.value) is None
        ):
            return False
        truncation = _argument(call, "truncation", None)
        if truncation is None:
            return kind == "none"
        return _truncates(_literal(truncation.value))

    def _check_mask(self, call: cst.Call, padded: bool) -> None:
        mask = _argument(call, "return_attention_mask", None)
        if padded and mask is not None and _literal(mask.value) is False:
            self.report(
                mask.value,
                PaddingWithoutMask,
                "padded batch without attention_mask: pad tokens change the model's results; "
                "drop `return_attention_mask=False` and pass the mask to the model",
                False,
            )

    def _collator_call(self, original: cst.Call, updated: cst.Call, collator: str) -> cst.Call:
        padding_at, multiple_at, safe_positionals = COLLATORS[collator]
        if collator == "DataCollatorForSeq2Seq":
            label = self._label_padding(_argument(original, "label_pad_token_id", 5))
            if label is not None:
                self.report(label[0] or original, LabelPaddingNotIgnored, label[1], False)
        if _argument(original, "pad_to_multiple_of", multiple_at) is not None:
            return updated
        padding = _argument(original, "padding", padding_at) if padding_at is not None else None
        kind = "longest" if padding is None else _padding_kind(_literal(padding.value))
        if kind in ("max_length", "none"):
            return updated
        multiple = self.settings.bucket_multiple
        problem = None
        if _has_star(original, "**") or _has_star(original, "*"):
            problem = "its arguments come from *args/**kwargs"
        elif _positional_count(original) > safe_positionals:
            problem = "it has many positional arguments"
        elif kind == "unknown":
            problem = f"its padding is `{_code(padding.value)}`"  # type: ignore[union-attr]
        elif self.settings.buckets:
            self.report(
                original,
                CollatorPadding,
                f"{collator} pads to the longest and pad_to_multiple_of cannot express buckets "
                f"({self._bucket_list()}): use a collate function that pads to the next bucket, or "
                f'`padding="max_length", max_length={self.settings.buckets[-1]}`',
                False,
            )
            return updated
        if problem is not None:
            self.report(
                original,
                CollatorPadding,
                f"{collator} may pad to the longest but {problem}: make sure it gets "
                f"`pad_to_multiple_of={multiple}`",
                False,
            )
            return updated
        if not self.report(
            original,
            CollatorPadding,
            f"{collator} pads to the longest → pad_to_multiple_of={multiple}",
            True,
        ):
            return updated
        return append_keyword(updated, "pad_to_multiple_of", cst.Integer(str(multiple)))

    def _label_padding(
        self, arg: cst.Arg | None, default: int | None = None
    ) -> tuple[cst.CSTNode | None, str] | None:
        """Where and why, when labels are padded with a value the file's losses do not ignore."""
        value = _literal(arg.value) if arg is not None else default
        if not isinstance(value, int) or isinstance(value, bool) or value in self._ignore_indices:
            return None
        ignored = ", ".join(str(i) for i in sorted(self._ignore_indices))
        padded = f"the default {value}" if arg is None else str(value)
        return arg.value if arg is not None else None, (
            f"labels padded with {padded} but the loss ignores {ignored}: padded positions count "
            "in the loss; pad labels with the loss's ignore_index (-100 by default)"
        )

    def _pad_sequence_call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        inside = self._in_collate_function(original)
        if inside is None:
            return updated  # the helper's own call
        first = _argument(original, "sequences", 0)
        if inside and first is not None and LABELS.search(_code(first.value)):
            label = self._label_padding(_argument(original, "padding_value", 2), default=0)
            if label is not None:
                self.report(label[0] or original, LabelPaddingNotIgnored, label[1], False)
        readable = all(
            not arg.star and (arg.keyword is None or arg.keyword.value in PAD_SEQUENCE_PARAMS)
            for arg in original.args
        ) and _positional_count(original) <= len(PAD_SEQUENCE_PARAMS)
        if not inside or not readable or self._helper_state == "taken":
            reason = (
                "outside a collate function"
                if not inside
                else f"`{HELPER}` is already defined in this module"
                if self._helper_state == "taken"
                else "with arguments the bucket helper does not take"
            )
            self.report(
                original,
                PadSequenceBucket,
                f"pad_sequence {reason} pads to the longest, a new shape per batch: pad the time "
                f"dimension up to {self._bucket_text()} if this builds model inputs",
                False,
            )
            return updated
        unmasked = self._unmasked_padding()
        if unmasked:
            self.report(
                original,
                PadSequenceBucket,
                f"pad_sequence in a collate function pads to the longest, a new shape per batch; "
                f"not padded to a bucket, since {unmasked}: pad up to {self._bucket_text()} only "
                "together with a mask of the pads that the model applies",
                False,
            )
            return updated
        if not self.report(
            original,
            PadSequenceBucket,
            f"pad_sequence → {HELPER}: pads up to {self._bucket_text()}",
            True,
        ):
            return updated
        if self._helper_state == "absent":
            self._helper_needed = True
            if self._helper_before is None:
                self._helper_before = self._top_level(original)
        if not self._imports_torch:
            # LibCST's import adder moves a module's header comment away from its first line
            # even when the import is there (a notebook's first cell would change).
            self.add_import("torch")
        return updated.with_changes(func=cst.Name(HELPER))

    def _unmasked_padding(self) -> str:
        """Why more pads would change what the model computes ("" where the module shows that
        the model masks them): a recurrent module's final state comes after every pad step, and
        a model given no mask of the pads attends to them."""
        if self._recurrent:
            return (
                f"the module runs a recurrent network (`{self._recurrent}`), whose final state "
                "would be taken after the extra pad steps"
            )
        if not self._masked:
            return (
                "no mask of the pads is built here (an `attention_mask` or `key_padding_mask` "
                "the model takes, or a comparison with the pad index), so extra pads may change "
                "the model's results"
            )
        return ""

    def _top_level(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The statement of the module that holds ``node``."""
        current: cst.CSTNode | None = node
        while current is not None:
            parent = self.get_metadata(ParentNodeProvider, current, None)
            if isinstance(parent, cst.Module):
                return current
            current = parent
        return None

    def _bucket_list(self) -> str:
        return ", ".join(str(b) for b in self.settings.buckets)

    def _bucket_text(self) -> str:
        if self.settings.buckets:
            return "the next of " + ", ".join(str(b) for b in self.settings.buckets)
        return f"a multiple of {self.settings.bucket_multiple}"

    def _loader_call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if _argument(original, "drop_last", LOADER_POSITIONS["drop_last"]) is not None:
            return updated
        batch_sampler = _argument(original, "batch_sampler", LOADER_POSITIONS["batch_sampler"])
        if batch_sampler is not None and _literal(batch_sampler.value) is not None:
            return updated  # drop_last belongs to the batch sampler then
        batch_size = _argument(original, "batch_size", LOADER_POSITIONS["batch_size"])
        unreadable = _has_star(original, "**") or _has_star(original, "*")
        if not unreadable and (batch_size is None or _literal(batch_size.value) in (1, None)):
            return updated  # batches of one sample: the last batch has the same shape
        if original in self._demo_loaders:
            return updated  # a `__main__` demo of a dataset module: no step sees its batches
        role = self._loader_roles.get(original) or self._role_by_name(original)
        if role is None:
            return updated
        if not unreadable and self._batches_exactly(original, batch_size):
            return updated  # no partial last batch: nothing to drop, no extra shape
        kind, why = role
        if kind == "eval":
            self.report(
                original,
                EvalLoaderPartialBatch,
                f"evaluation DataLoader ({why}): its last partial batch {self._one_more_shape()}; "
                "drop_last would skip samples, so pad the dataset to a multiple of the batch "
                "size or accept the extra compile",
                False,
            )
            return updated
        if unreadable:
            self.report(
                original,
                TrainLoaderDropLast,
                f"training DataLoader ({why}) takes *args/**kwargs: make sure they set "
                "drop_last=True, "
                f"or the last partial batch {self._one_more_shape()}",
                False,
            )
            return updated
        padder = self._pads_each_batch(original)
        if padder is not None:
            # Batches take a new shape nearly every step whatever the last one does: dropping
            # it saves at most one compile an epoch and loses samples (measured on a text CNN
            # whose collate pads to the batch's longest sentence: 10 compiles in 22 steps with
            # drop_last).
            self.report(
                original,
                TrainLoaderDropLast,
                f"training DataLoader ({why}): its collate function `{padder}` pads each batch "
                "to its own largest item (TRN440), so batches take new shapes anyway and "
                "drop_last=True would only skip samples: pad to a fixed length or to a few "
                "buckets first, then set drop_last=True",
                False,
            )
            return updated
        shuffle = _argument(original, "shuffle", 2)  # DataLoader(dataset, batch_size, shuffle)
        if shuffle is not None and _split_test(shuffle.value) and not unreadable:
            # `shuffle=split == "train"` in a loop over the splits: one call builds the
            # evaluation loaders too, where dropping the last batch skips their samples.
            test = _code(shuffle.value)
            self.report(
                original,
                TrainLoaderDropLast,
                f"training DataLoader ({why}), but `shuffle={test}` says the same call builds "
                "loaders that are not shuffled (evaluation splits), where drop_last would skip "
                f"samples: pass `drop_last={test}` if it holds only for training; otherwise the "
                f"last partial batch {self._one_more_shape()}",
                False,
            )
            return updated
        sampler = _argument(original, "sampler", 3)  # DataLoader(dataset, bs, shuffle, sampler)
        if sampler is None and (shuffle is None or _literal(shuffle.value) is False):
            # Batches in the same order every epoch (the dataset may have shuffled its items
            # once): drop_last would leave the same last samples out of every epoch, so the
            # model never sees them, to save one compile (MelGAN's file list, shuffled once with
            # a fixed seed).
            self.report(
                original,
                TrainLoaderDropLast,
                f"training DataLoader ({why}) that does not shuffle: drop_last=True would leave "
                "the same last samples (up to batch_size - 1) out of every epoch; shuffle it and "
                "set drop_last=True, pad the dataset to a multiple of the batch size, or accept "
                f"that the last partial batch {self._one_more_shape()}",
                False,
            )
            return updated
        if not self.report(
            original,
            TrainLoaderDropLast,
            f"training DataLoader ({why}) → drop_last=True: otherwise the last partial batch "
            f"{self._one_more_shape()}; up to batch_size - 1 samples per epoch are skipped",
            True,
        ):
            return updated
        return append_keyword(updated, "drop_last", cst.Name("True"))

    def _pads_each_batch(self, loader: cst.Call) -> str | None:
        """The loader's `collate_fn=` as written, where the program shows that the function
        pads each batch to its own largest item (``ModuleView.padded_collates``)."""
        collate = _argument(loader, "collate_fn", LOADER_POSITIONS["collate_fn"])
        if collate is None:
            return None
        text = _code(collate.value)
        return text if text in self.run.program.padded_collates else None

    # -- loaders without a partial batch ----------------------------------------------------------
    def _batches_exactly(self, loader: cst.Call, batch_size: cst.Arg | None) -> bool:
        """Whether ``loader`` visibly yields only full batches: its batch size and its dataset's
        size are decided (literals, or names assigned only those) and the one divides the other.
        A sampler, or one the scale-out pass adds (a shard per replica), makes the size unknown."""
        if self.settings.scale_out or any(
            _argument(loader, key, position) is not None
            for key, position in (("sampler", 3), ("batch_sampler", 4))
        ):
            return False
        batch = self._decided_int(batch_size.value) if batch_size is not None else None
        dataset = _argument(loader, "dataset", 0)
        size = self._dataset_size(dataset.value, depth=0) if dataset is not None else None
        return bool(batch and size and batch > 0 and size % batch == 0)

    def _values_of(self, node: cst.BaseExpression) -> list[cst.BaseExpression] | None:
        """``node`` itself, or every value its name is assigned where each binding of it is an
        assignment; None where a binding is not (a parameter, a loop target) or not settled."""
        if not isinstance(node, cst.Name):
            return [node]
        found = self.visible_assignments(node)
        if not found or any(statement is None for statement in found):
            return None
        return [statement.value for statement in found]  # type: ignore[union-attr]

    def _decided_int(self, node: cst.BaseExpression) -> int | None:
        values = self._values_of(node)
        literals = {_literal(value) for value in values or ()}
        if len(literals) != 1:
            return None
        value = literals.pop()
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def _dataset_size(self, node: cst.BaseExpression, depth: int) -> int | None:
        """Samples in a dataset whose size its construction decides, else None."""
        values = self._values_of(node) if depth < 4 else None
        sizes = {self._call_size(value, depth) for value in values or ()}
        return sizes.pop() if len(sizes) == 1 else None

    def _call_size(self, node: cst.BaseExpression, depth: int) -> int | None:
        if not isinstance(node, cst.Call):
            return None
        names = self.qualified_names(node.func)
        found = table_size(node, names)
        if found is not None:
            return found[0]
        if "builtins.range" in names:
            return range_length(node)
        if names & FACTORIES:
            return first_dimension(node)
        if TENSOR_DATASET in names and node.args and not node.args[0].star:
            return self._dataset_size(node.args[0].value, depth + 1)
        return None

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self._helper_needed:
            return updated_node
        body = list(updated_node.body)
        index = 0
        while index < len(body) and _is_preamble(body[index], index):
            index += 1
        # Beside the code that calls it, not before it: in a notebook the statement after the
        # imports may be in a cell that only some runs execute (an install cell for Colab).
        for at, statement in enumerate(original_node.body):
            if statement is self._helper_before:
                index = max(index, at)
        helper = cst.parse_statement(
            helper_source(self.settings.buckets, self.settings.bucket_multiple)
        )
        helper = helper.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])
        if index < len(body):
            following = body[index]
            blank = sum(1 for line in following.leading_lines if line.comment is None)
            if blank < 2:
                extra = [cst.EmptyLine()] * (2 - blank)
                body[index] = following.with_changes(
                    leading_lines=[*extra, *following.leading_lines]
                )
        body.insert(index, helper)
        return updated_node.with_changes(body=body)


def _masks_pads(module: cst.Module) -> bool:
    """A mask of the pads is built in the module: a string key `"attention_mask"` (a batch
    handed on as a dict), or a comparison with a pad index (`src != self.src_pad_idx`,
    `ids.ne(pad_token_id)`)."""
    for string in find(module, cst.SimpleString):
        if string.value.strip("\"'") in MASK_NAMES:  # type: ignore[attr-defined]
            return True
    for comparison in find(module, cst.Comparison):
        sides = [comparison.left]  # type: ignore[attr-defined]
        for target in comparison.comparisons:  # type: ignore[attr-defined]
            sides.append(target.comparator)
            if isinstance(target.operator, cst.Equal | cst.NotEqual) and any(
                PAD_INDEX.search(_code(side)) for side in sides
            ):
                return True
    for call in find(module, cst.Call):
        func = call.func  # type: ignore[attr-defined]
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value in ("ne", "eq")
            and any(PAD_INDEX.search(_code(a.value)) for a in call.args)  # type: ignore[attr-defined]
        ):
            return True
    return False


def _makes_fixed_blocks(module: cst.Module) -> bool:
    """A function passed to some ``.map(...)`` that cuts sequences into blocks of one size:
    ``[t[i : i + size] for i in range(0, total, size)]``."""
    mapped = {
        call.args[0].value.value
        for call in find(module, cst.Call)
        if m.matches(call.func, m.Attribute(attr=m.Name("map")))
        and call.args
        and isinstance(call.args[0].value, cst.Name)
    }
    for function in find(module, cst.FunctionDef):
        if function.name.value not in mapped:  # type: ignore[attr-defined]
            continue
        for comp in m.findall(function, m.CompFor(iter=m.Call(func=m.Name("range")))):
            args = comp.iter.args  # type: ignore[attr-defined]
            if len(args) != 3 or not isinstance(comp.target, cst.Name):  # type: ignore[attr-defined]
                continue
            index, size = comp.target.value, _code(args[2].value)  # type: ignore[attr-defined]
            block = m.Slice(
                lower=m.Name(index),
                upper=m.BinaryOperation(
                    left=m.Name(index),
                    operator=m.Add(),
                    right=m.MatchIfTrue(lambda node, size=size: _code(node) == size),
                ),
            )
            if m.findall(function, block):
                return True
    return False


def _is_preamble(statement: cst.BaseStatement, index: int) -> bool:
    """A docstring or an import at the top of the module."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    if all(isinstance(small, cst.Import | cst.ImportFrom) for small in statement.body):
        return True
    return index == 0 and m.matches(statement, m.SimpleStatementLine([m.Expr(m.SimpleString())]))


def _contains(outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
    return any(node is inner for node in find(outer, type(inner)))
