"""Process utilities: seeding the XLA RNG, rank-0 printing and activation checkpointing in their
torch_xla spellings (reference R11, R12, R14)."""

from __future__ import annotations

import re

import libcst as cst
from libcst.codemod.visitors import RemoveImportsVisitor
from libcst.metadata import ParentNodeProvider

from trncodemod.analysis.device import analyse
from trncodemod.analysis.facts import FileFacts, may_resolve
from trncodemod.analysis.ranks import (
    _GLOBAL_CALLS,
    _LOCAL_CALLS,
    _MASTER_CALL,
    _RANK_ENV,
    mentions_rank,
    rank_zero_test,
)
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass, per_tree
from trncodemod.rewriting.calls import append_keyword
from trncodemod.targets import Target

_MANUAL_SEED = frozenset({"torch.manual_seed", "torch.random.manual_seed"})
_XLA_SEEDS = frozenset(
    {
        "torch_xla.core.xla_model.set_rng_state",
        "torch_xla.manual_seed",
        "torch_xla.torch_xla.manual_seed",
    }
)
_TORCH_CHECKPOINT = "torch.utils.checkpoint.checkpoint"
_TORCH_CHECKPOINT_SEQUENTIAL = "torch.utils.checkpoint.checkpoint_sequential"
# `print` keywords and their `xm.master_print` names (`xla_model.py` `master_print`).
_PRINT_KEYWORDS = {"file": "fd", "flush": "flush"}


# What `ranks.mentions_rank` accepts: a name or attribute whose last part says rank or ordinal
# (its `_ANY_NAME`; the rank calls are named so too unless imported under another name), a
# rank call, or the string "RANK"/"LOCAL_RANK".
_RANK_NAME = re.compile(r"(^|_)(rank|ordinal)$", re.IGNORECASE | re.MULTILINE)
_RANK_CALLS = _GLOBAL_CALLS | _LOCAL_CALLS | {_MASTER_CALL}


def _may_mention_rank(facts: FileFacts) -> bool:
    """Whether some expression of the file may be one ``mentions_rank`` accepts."""
    return (
        not facts.strings.isdisjoint(_RANK_ENV)
        or _RANK_NAME.search("\n".join(facts.identifiers)) is not None
        or may_resolve(facts, _RANK_CALLS)
    )


class XlaSeed(Rule):
    """## What it does
    Adds the XLA seed right after `torch.manual_seed(s)` (also `torch.random.manual_seed`):
    `torch_xla.manual_seed(s)` on torch-xla 2.5 and later, `xm.set_rng_state(s)` on xla-2.1. The
    original call stays. The seed is written twice, so it must be free of side effects: a name,
    an attribute, a number, arithmetic on those or `int(...)` of them; any other seed is reported.
    Nothing is added where the next statement already seeds the XLA RNG.

    ## Why
    `torch.manual_seed` does not seed the XLA device's RNG: `torch.randn(..., device="xla")`
    draws the same numbers for seeds 0 and 1 (reference R12, measured), so dropout masks and
    on-device initialisation ignore the seed. Keeping `torch.manual_seed` keeps the CPU
    initialisation of weights deterministic. `torch_xla.manual_seed` exists from torch-xla 2.5
    (reference §1.2).

    ## Example
    ```python
    torch.manual_seed(args.seed)
    ```

    ## Use instead
    ```python
    import torch_xla

    torch.manual_seed(args.seed)
    torch_xla.manual_seed(args.seed)
    ```
    """

    code = "TRN331"
    name = "xla-seed"
    summary = "`torch.manual_seed(s)` does not seed the XLA RNG → add the XLA seed after it"
    safety = Safety.SAFE
    severity = Severity.WARNING
    source = "reference R12, §1.2"


class MasterPrint(Rule):
    """## What it does
    Rewrites an `if` whose test is exactly a rank-0 test and whose body holds only `print(...)`
    calls to `xm.master_print(...)` calls: `if rank == 0:`, `if dist.get_rank() == 0:`,
    `if xr.global_ordinal() == 0:` give `xm.master_print(...)` (the job's rank 0);
    `if args.local_rank in (-1, 0):`, `if local_rank == 0:`, `if xm.is_master_ordinal():` give
    `xm.master_print(..., local=True)` (rank 0 of each host). `file=` becomes `fd=`.

    Reported instead, and left alone: such a guard with an `else`/`elif`, or with prints mixed
    with other statements, and prints with `sep=`/`end=`, which `xm.master_print` does not take.

    ## Why
    `xm.master_print(*args, fd=sys.stdout, local=False, flush=False)` prints on the master
    ordinal only (reference R11, `xla_model.py`; used throughout `test_train_mp_mnist.py`). The
    arguments are now evaluated on every process (a `loss.item()` among them syncs on each one,
    as the guarded code did on rank 0): combine with the `.item()` hoist (reference R6).

    ## Example
    ```python
    if dist.get_rank() == 0:
        print(f"epoch {epoch} done")
    ```

    ## Use instead
    ```python
    import torch_xla.core.xla_model as xm

    xm.master_print(f"epoch {epoch} done")
    ```
    """

    code = "TRN332"
    name = "master-print"
    summary = "`if rank == 0: print(...)` → `xm.master_print(...)`"
    safety = Safety.SAFE
    severity = Severity.INFO
    source = "reference R11"


class RankGuardedPrint(Rule):
    """## What it does
    Reports `print(...)` directly under an `if` that tests a rank when TRN332 cannot rewrite it:
    the guard has an `else`/`elif`, the body also does other things, the test is more than a
    rank-0 test (`rank == 0 and verbose`), or a print passes `sep=`/`end=`. Nothing is changed.

    ## Why
    The guard keeps working under torch_xla; `xm.master_print` is the idiomatic spelling
    (reference R11) but the rewrite would change what runs on the other processes, so a person
    decides.

    ## Example
    ```python
    if rank == 0:
        print("saving")
        save_artifacts()
    ```

    ## Use instead
    ```python
    xm.master_print("saving")
    if rank == 0:
        save_artifacts()
    ```
    """

    code = "TRN333"
    name = "rank-guarded-print"
    summary = "rank-guarded print the tool cannot turn into `xm.master_print` (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.INFO
    source = "reference R11"


class XlaActivationCheckpoint(Rule):
    """## What it does
    On xla-2.9, rewrites `torch.utils.checkpoint.checkpoint(fn, *args)` (any import spelling) to
    `torch_xla.utils.checkpoint.checkpoint(fn, *args, use_reentrant=True)`, keeping
    `use_reentrant=True` and `preserve_rng_state=`. Reported instead: `use_reentrant=False` or a
    computed `use_reentrant`, other keywords (`context_fn=`, `determinism_check=`, `debug=`),
    `**kwargs`, and `checkpoint_sequential`, which torch_xla does not provide. Other targets are
    left alone.

    ## Why
    On torch-neuronx 2.9 `torch.utils.checkpoint.checkpoint` raises
    `AttributeError: module 'torch' has no attribute 'xla'`; Neuron's fix is
    `torch_xla.utils.checkpoint.checkpoint(..., use_reentrant=True)` (reference §1.1, R14).
    torch_xla's version accepts only `use_reentrant=True` ("XLA currently does not support
    use_reentrant==False", pytorch/xla#5766) and `preserve_rng_state`. torch 2.9 also defaults to
    the reentrant variant when `use_reentrant` is not passed, so behaviour is kept.

    ## Example
    ```python
    from torch.utils.checkpoint import checkpoint
    h = checkpoint(self.block, h)
    ```

    ## Use instead
    ```python
    import torch_xla.utils.checkpoint
    h = torch_xla.utils.checkpoint.checkpoint(self.block, h, use_reentrant=True)
    ```
    """

    code = "TRN334"
    name = "xla-activation-checkpoint"
    summary = "`torch.utils.checkpoint.checkpoint` fails on torch-xla 2.9 → torch_xla's"
    safety = Safety.SAFE
    severity = Severity.ERROR
    source = "reference R14, §1.1"


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _pure(node: cst.BaseExpression, qualified) -> bool:
    """Whether evaluating ``node`` twice is the same as once: names, attributes, numbers,
    arithmetic on those and ``int(...)`` of them."""
    if isinstance(node, cst.Name | cst.Integer):
        return True
    if isinstance(node, cst.Attribute):
        return _pure(node.value, qualified)
    if isinstance(node, cst.BinaryOperation):
        return _pure(node.left, qualified) and _pure(node.right, qualified)
    if isinstance(node, cst.UnaryOperation):
        return _pure(node.expression, qualified)
    if isinstance(node, cst.Call) and qualified(node.func) & {"builtins.int"}:
        return (
            len(node.args) == 1
            and node.args[0].keyword is None
            and not node.args[0].star
            and _pure(node.args[0].value, qualified)
        )
    return False


class ProcessUtilities(Pass):
    name = "utilities"
    rules = (XlaSeed, MasterPrint, RankGuardedPrint, XlaActivationCheckpoint)
    needles = ("manual_seed", "print", "checkpoint")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._seed_after: dict[cst.BaseSmallStatement, cst.BaseExpression] = {}
        self._master_print: dict[cst.If, str] = {}  # guard -> "global" or "local"
        self._checkpoint: set[cst.Call] = set()

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        if not target.is_xla:
            return False  # visit_Module walks nothing
        # torch.manual_seed: an XLA seed added or reported, where the target has one.
        if target.api("manual_seed") and may_resolve(facts, _MANUAL_SEED):
            return True
        # torch.utils.checkpoint.checkpoint(_sequential): rewritten or reported, where the
        # target has torch_xla's checkpoint.
        if target.api("checkpoint") and may_resolve(
            facts, (_TORCH_CHECKPOINT, _TORCH_CHECKPOINT_SEQUENTIAL)
        ):
            return True
        # A builtin `print` under an `if` whose test mentions a rank (visit_If).
        prints = "print" in facts.calls or may_resolve(facts, ("builtins.print",))
        return prints and _may_mention_rank(facts)

    def visit_Module(self, node: cst.Module) -> bool:
        return self.target.is_xla  # TorchNeuron: none of these apply (reference §5)

    # -- seeding -----------------------------------------------------------------------------
    def _seeds_xla(self, node: cst.CSTNode | None) -> bool:
        if isinstance(node, cst.SimpleStatementLine):
            node = node.body[0]
        return (
            isinstance(node, cst.Expr)
            and isinstance(node.value, cst.Call)
            and self.is_any(node.value.func, _XLA_SEEDS)
        )

    def _next_statement(self, small: cst.BaseSmallStatement) -> cst.CSTNode | None:
        line = self.get_metadata(ParentNodeProvider, small, None)
        if line is None:
            return None
        smalls = list(line.body)
        index = smalls.index(small)
        if index + 1 < len(smalls):
            return smalls[index + 1]
        if isinstance(line, cst.SimpleStatementSuite):
            return None
        block = self.get_metadata(ParentNodeProvider, line, None)
        siblings = list(getattr(block, "body", ()))
        position = next((i for i, s in enumerate(siblings) if s is line), len(siblings))
        return siblings[position + 1] if position + 1 < len(siblings) else None

    def _places_on_device(self) -> bool:
        """Whether the file puts anything on a device: a file that never does (a data script,
        a CPU utility) gets no XLA seed and no `import torch_xla` (issue 14 item 8)."""
        if self.run.profile.already_xla:
            return True
        module = self._wrapper.module
        return per_tree(
            module, "device", lambda tree: analyse(tree, self.module_names)
        ).places_on_device

    def _plan_seed(self, call: cst.Call) -> None:
        api = self.target.api("manual_seed")
        if not api or not self._places_on_device():
            return
        small = self.get_metadata(ParentNodeProvider, call, None)
        if isinstance(small, cst.Assign) and small.value is not call:
            small = None
        if not isinstance(small, cst.Expr | cst.Assign):
            self.report(
                call,
                XlaSeed,
                f"seed the XLA RNG too: call `{api.expr}(<seed>)` as a statement right after "
                "this torch.manual_seed",
                False,
            )
            return
        if self._seeds_xla(self._next_statement(small)):
            return
        seed = call.args[0].value if len(call.args) == 1 and not call.args[0].star else None
        if seed is None or not _pure(seed, self.module_names):
            self.report(
                call,
                XlaSeed,
                "torch.manual_seed does not seed the XLA RNG; this seed is computed here, so bind "
                f"it to a variable once and pass it to torch.manual_seed and `{api.expr}`",
                False,
            )
            return
        if self.report(
            call,
            XlaSeed,
            f"torch.manual_seed does not seed the XLA RNG: `{api.expr}({_code(seed)})` added",
            True,
        ):
            self._seed_after[small] = seed

    def _xla_seed(self, seed: cst.BaseExpression) -> cst.Expr:
        return cst.Expr(cst.Call(self.emit(self.target.api("manual_seed")), [cst.Arg(seed)]))

    # -- rank-0 printing ---------------------------------------------------------------------
    def _print_calls(self, body: cst.BaseSuite) -> list[cst.Call] | None:
        """The ``print(...)`` calls when ``body`` holds nothing else; None otherwise."""
        lines = [body] if isinstance(body, cst.SimpleStatementSuite) else list(body.body)
        calls = []
        for line in lines:
            if not isinstance(line, cst.SimpleStatementLine | cst.SimpleStatementSuite):
                return None
            for small in line.body:
                if not (
                    isinstance(small, cst.Expr)
                    and isinstance(small.value, cst.Call)
                    and self.is_any(small.value.func, {"builtins.print"})
                ):
                    return None
                calls.append(small.value)
        return calls

    def _direct_prints(self, body: cst.BaseSuite) -> list[cst.Call]:
        lines = [body] if isinstance(body, cst.SimpleStatementSuite) else list(body.body)
        return [
            small.value
            for line in lines
            if isinstance(line, cst.SimpleStatementLine | cst.SimpleStatementSuite)
            for small in line.body
            if isinstance(small, cst.Expr)
            and isinstance(small.value, cst.Call)
            and self.is_any(small.value.func, {"builtins.print"})
        ]

    def visit_If(self, node: cst.If) -> None:
        prints = self._direct_prints(node.body)
        if not prints or not mentions_rank(node.test, self.module_names):
            return
        api = self.target.api("master_print")
        master = rank_zero_test(node.test, self.module_names)
        calls = self._print_calls(node.body)
        parent = self.get_metadata(ParentNodeProvider, node, None)
        is_elif = isinstance(parent, cst.If) and parent.orelse is node
        unsupported = [
            arg.keyword.value
            for call in prints
            for arg in call.args
            if arg.keyword is not None and arg.keyword.value not in _PRINT_KEYWORDS
        ]
        why = None
        if master is None:
            why = f"`{_code(node.test)}` is not exactly a rank-0 test"
        elif node.orelse is not None or is_elif:
            why = "the guard has another branch"
        elif calls is None:
            why = "the guard also runs other statements"
        elif unsupported or any(arg.star for call in prints for arg in call.args):
            why = f"`{api.expr}` takes no `{'`, `'.join(unsupported) or '*'}` argument"
        elif isinstance(node.body, cst.IndentedBlock) and node.body.header.comment is not None:
            why = "a comment on the guard's line would be lost"
        if why is not None:
            for call in prints:
                self.report(
                    call,
                    RankGuardedPrint,
                    f"rank-0 print kept as is ({why}); `{api.expr}(...)` prints on the master "
                    "only without a guard",
                    False,
                )
            return
        local = ", local=True" if master == "local" else ""
        if self.report(
            node,
            MasterPrint,
            f"rank-0 guard around print → `{api.expr}(...{local})`",
            True,
        ):
            self._master_print[node] = master  # type: ignore[assignment]

    def _master_print_call(self, call: cst.Call, master: str) -> cst.Call:
        args = [
            arg.with_changes(keyword=cst.Name(_PRINT_KEYWORDS[arg.keyword.value]))
            if arg.keyword is not None
            else arg
            for arg in call.args
        ]
        call = call.with_changes(func=self.emit(self.target.api("master_print")), args=args)
        if master == "local":
            call = append_keyword(call, "local", cst.Name("True"))
        return call

    def leave_If(self, original_node: cst.If, updated_node: cst.If):
        master = self._master_print.get(original_node)
        if master is None:
            return updated_node
        body = updated_node.body
        if isinstance(body, cst.SimpleStatementSuite):
            lines = [
                cst.SimpleStatementLine(body.body, trailing_whitespace=body.trailing_whitespace)
            ]
        else:
            lines = list(body.body)  # type: ignore[arg-type]
        new_lines = []
        for index, line in enumerate(lines):
            smalls = [
                small.with_changes(value=self._master_print_call(small.value, master))
                for small in line.body
            ]
            leading = list(line.leading_lines)
            if index == 0:  # the guard's comments and blank lines stay above the first print
                leading = [*updated_node.leading_lines, *leading]
            new_lines.append(line.with_changes(body=smalls, leading_lines=leading))
        return cst.FlattenSentinel(new_lines)

    # -- activation checkpointing ------------------------------------------------------------
    def _plan_checkpoint(self, call: cst.Call) -> None:
        api = self.target.api("checkpoint")
        if not api:
            return  # torch.utils.checkpoint works on torch-xla before 2.9 (reference R14)
        problems = []
        for arg in call.args:
            if arg.star == "**":
                problems.append("`**kwargs`")
            elif arg.keyword is None:
                continue
            elif arg.keyword.value == "use_reentrant":
                if not (isinstance(arg.value, cst.Name) and arg.value.value == "True"):
                    problems.append(f"`use_reentrant={_code(arg.value)}`")
            elif arg.keyword.value != "preserve_rng_state":
                problems.append(f"`{arg.keyword.value}=`")
        if problems:
            self.report(
                call,
                XlaActivationCheckpoint,
                f"torch.utils.checkpoint fails on torch-xla 2.9, and `{api.expr}` accepts only "
                f"`use_reentrant=True` and `preserve_rng_state=` (this call passes "
                f"{', '.join(problems)}): rewrite the call for `{api.expr}(fn, *args, "
                "use_reentrant=True)`",
                False,
            )
            return
        if self.report(
            call,
            XlaActivationCheckpoint,
            f"torch.utils.checkpoint fails on torch-xla 2.9 → `{api.expr}(..., "
            "use_reentrant=True)`",
            True,
        ):
            self._checkpoint.add(call)

    def visit_Call(self, node: cst.Call) -> None:
        if self.is_any(node.func, _MANUAL_SEED):
            self._plan_seed(node)
        elif self.is_any(node.func, {_TORCH_CHECKPOINT}):
            self._plan_checkpoint(node)
        elif self.is_any(node.func, {_TORCH_CHECKPOINT_SEQUENTIAL}) and self.target.api(
            "checkpoint"
        ):
            self.report(
                node,
                XlaActivationCheckpoint,
                "torch.utils.checkpoint.checkpoint_sequential fails on torch-xla 2.9 and "
                "torch_xla has none: wrap each segment in "
                f"`{self.target.api('checkpoint').expr}(segment, x, use_reentrant=True)`",
                False,
            )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if original_node not in self._checkpoint:
            return updated_node
        args = list(updated_node.args)
        call = updated_node.with_changes(func=self.emit(self.target.api("checkpoint")), args=args)
        if not any(a.keyword is not None and a.keyword.value == "use_reentrant" for a in args):
            call = append_keyword(call, "use_reentrant", cst.Name("True"))
        RemoveImportsVisitor.remove_unused_import(
            self.context, "torch.utils.checkpoint", "checkpoint"
        )
        return call

    # -- statements --------------------------------------------------------------------------
    def _with_seeds(self, original, updated) -> list[cst.BaseSmallStatement]:
        body: list[cst.BaseSmallStatement] = []
        for old, new in zip(original.body, updated.body, strict=True):
            body.append(new)
            if old in self._seed_after:
                body.append(self._xla_seed(self._seed_after[old]))
        return body

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ):
        if not any(small in self._seed_after for small in original_node.body):
            return updated_node
        if len(original_node.body) > 1:
            return updated_node.with_changes(body=self._with_seeds(original_node, updated_node))
        seed = self._xla_seed(self._seed_after[original_node.body[0]])
        return cst.FlattenSentinel([updated_node, cst.SimpleStatementLine([seed])])

    def leave_SimpleStatementSuite(
        self, original_node: cst.SimpleStatementSuite, updated_node: cst.SimpleStatementSuite
    ) -> cst.SimpleStatementSuite:
        if not any(small in self._seed_after for small in original_node.body):
            return updated_node
        return updated_node.with_changes(body=self._with_seeds(original_node, updated_node))
