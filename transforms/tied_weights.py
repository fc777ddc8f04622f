"""Weights a module ties in ``__init__`` come apart when the module moves to the XLA device:
torch's ``Module._apply`` makes a new Parameter per module where the CPU and XLA tensor types
cannot be shallow-copied into each other, so `lm_head.weight` and `wte.weight` become two
parameters and the program trains another model (measured with torch 2.9 + torch-xla 2.9:
1 parameter before `.to(torch_xla.device())`, 2 after; `verify --against` counted 29 trained
parameters against 28 on examples/gpt_amp.py). The tie is made again after the move (TRN250), or
reported where the move cannot be followed (TRN251).

Runs after the device pass: the moves it finds are the migrated ones, and the device is the one
the device pass wrote (``is_xla_device``).
"""

from __future__ import annotations

import libcst as cst
from libcst.metadata import ImportAssignment, ParentNodeProvider, ScopeProvider
from trncodemod.transforms.loader_values import Values, is_xla_device
from trncodemod.transforms.tied_weights_condition import (
    Asked,
    ask_again,
    assigned_value,
    reaching,
)

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.program import ModuleView
from trncodemod.analysis.weight_ties import Ties, module_ties
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Target

_COMMENT = "# moving to the XLA device unties shared weights: tie them again"


class TiedWeightsRetie(Rule):
    """## What it does
    Where a module class of the file, or one it imports from another module of the program,
    ties weights in `__init__` (`self.lm_head.weight = self.wte.weight`) and the file moves an
    instance of it to the XLA device as a statement
    (`model = GPT(cfg).to(device)`, `model.to(device)`, `model = model.to(device)`), inserts the
    same tie on the instance right after the move. Only parameters come apart (`.weight`,
    `.bias`): a shared submodule (`self.decoder.token_emb = self.encoder.token_emb`) is one
    module, moved once, and stays shared. A tie `__init__` makes under a test of its own
    parameters (`if tied_weights:`) is made again under the same test asked of the arguments the
    call that built the model passed (`TCN(..., tied_weights=tied)` gives `if tied:`), where
    they are plain names or attributes bound nowhere after the model is built; constant
    arguments decide it here. Ties made by a method or a module-level function `__init__` calls
    with the instance (`self.tie_weights()`, `tie(self)`), and by a module class of the file
    built into an attribute (`self.decoder = Decoder(...)`), count as made in `__init__`.
    XLA targets only: whether TorchNeuron's eager device unties weights the same way is not
    known, so nothing is done for `neuron`.

    ## Why
    Moving a module to the XLA device unties its tied weights: torch's `Module._apply` makes a new
    Parameter for each module where the CPU and XLA tensor types are not shallow-copy compatible.
    Measured with torch 2.9 + torch-xla 2.9 [measured-tied-weights]: before the move the model has
    one parameter and `m.lm_head.weight is m.wte.weight`; after `.to(torch_xla.device())` it has
    two, and the program trains a different model (more parameters, each updated on its own).
    Hugging Face's Trainer ties them again after the move for the same reason
    (`Trainer._move_model_to_device` in transformers/trainer.py: "Moving a model to an XLA device
    disconnects the tied weights, so we have to retie them", then `model.tie_weights()`).

    ## Example
    ```python
    model = GPT(cfg).to(device)
    ```

    ## Use instead
    ```python
    model = GPT(cfg).to(device)
    # moving to the XLA device unties shared weights: tie them again
    model.lm_head.weight = model.wte.weight
    ```
    and, for `if tied_weights: self.decoder.weight = self.encoder.weight` in `__init__`,
    ```python
    model = TCN(..., tied_weights=tied)
    model.to(device)
    # moving to the XLA device unties shared weights: tie them again
    if tied:
        model.decoder.weight = model.encoder.weight
    ```
    """

    code = "TRN250"
    name = "tied-weights-retie"
    summary = "module with tied weights moved to the XLA device → tie them again after the move"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("xla-troubleshoot", "measured-tied-weights")


class TiedWeightsUntied(Rule):
    """## What it does
    Reports a move to the XLA device of a module whose weights are tied where the tool cannot
    tie them again itself: the move is inside an expression (`DDP(GPT(cfg).to(device))`) or a
    statement the tie cannot follow (`models["lm"] = GPT(cfg).to(device)`, a one-line `if`), the
    value moved may also come from the class's own classmethod (`GPT.from_pretrained(...)`) or
    the name may also hold a wrapper of it (`model = torch.compile(model)`), the tie in
    `__init__` depends on a condition other than a test of its parameters, or the class is a Hugging Face `PreTrainedModel` (which
    ties in `tie_weights()`), or the test a tie in `__init__` depends on cannot be asked again
    after the move with certainty (the call passes a call for the parameter, a name it reads is
    bound again after the model is built), or a function may rebind the moved name with
    `global` (awd-lstm-lm's `model_load`). Also a move to a device that still says CUDA after the migration
    (nanoGPT's `device = 'cuda'`, left for a person to set, TRN006/TRN026): once it is the XLA
    device, the move unties the weights. XLA targets only (see TRN250).

    ## Why
    Moving a module to the XLA device unties its tied weights (torch's `Module._apply` makes new
    Parameters; [measured-tied-weights], torch 2.9 + torch-xla 2.9), so the program trains a model
    with more parameters than the one it was written for. Hugging Face's Trainer calls
    `model.tie_weights()` after the move for this reason (`Trainer._move_model_to_device`).

    ## Example
    ```python
    model = DDP(GPT(cfg).to(device))
    ```

    ## Use instead
    ```python
    model = GPT(cfg).to(device)
    model.lm_head.weight = model.wte.weight  # or model.tie_weights() for a PreTrainedModel
    model = DDP(model)
    ```
    """

    code = "TRN251"
    name = "tied-weights-untied"
    summary = "module with tied weights moved to the XLA device where the tie cannot be redone here (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("measured-tied-weights", "xla-troubleshoot")


class TiedWeights(Pass):
    name = "tied-weights"
    rules = (TiedWeightsRetie, TiedWeightsUntied)
    needles = (".to(",)
    # The device pass may rewrite only the line that binds the device a move uses.
    sees = frozenset({"device"})

    @classmethod
    def applies_to(cls, target: Target) -> bool:
        return target.is_xla and super().applies_to(target)

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # A move (`.to`, or `.cuda()` the device pass turns into one) and a tie in a class.
        return (
            target.is_xla
            and ("to" in facts.calls or "cuda" in facts.calls)
            and ".weight" in facts.text
            and "class " in facts.text
        )

    @classmethod
    def asked_by(cls, program: ModuleView) -> bool:
        return bool(program.imported_ties)  # a tying class of another module is used here

    def visit_Module(self, node: cst.Module) -> None:
        # The file's own classes, and those its imports bind from other modules of the program.
        self._classes: dict[str, Ties] = {}
        self._imported: set[str] = set()
        self._doubts: dict[int, list[str]] = {}  # id(move) -> why the retie is not certain
        self._built: dict[int, list[cst.Call]] = {}  # id(move) -> the calls that built the model
        self._module_doubt = ""  # why a `module.Class` read may not be the module's class
        facts = self.run.facts
        if facts is None:
            return
        for name, ties in module_ties(facts.tree).items():
            self._classes[name] = Ties.read(ties)
        for name, ties in self.run.program.imported_ties.items():
            # By name, or by a `from m import *` the program model followed to one class.
            head = name.split(".", 1)[0]
            bound = head in facts.imported or "*" in facts.imported
            # `module.Class`: whether the module name still holds the module is asked where
            # the class is called (``_module_holds``).
            if bound and (head != name or name not in facts.global_names):
                self._classes.setdefault(name, Ties.read(ties))
                self._imported.add(name)

    # -- the moves ---------------------------------------------------------------------------

    def _moved_class(self, call: cst.Call) -> tuple[str, Ties, bool] | None:
        """The class a `.to(xla)` call moves an instance of, where it is one with ties, and
        whether that is certain."""
        if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "to"):
            return None
        device = next(
            (a.value for a in call.args if a.keyword and a.keyword.value == "device"), None
        )
        if device is None and call.args and call.args[0].keyword is None:
            device = call.args[0].value
        if device is None:
            return None
        # A device that is XLA on some launches only (`torch_xla.device() if args.accel else
        # torch.device("cpu")`): tying again is harmless where the move kept the tie.
        on_xla = is_xla_device(self, device) or self._may_be_xla(device)
        if not on_xla:
            if not self._left_to_a_person(device):
                return None
            self._doubt(
                call,
                f"`{_code(device)}` still says cuda: once it is the XLA device, as the migration "
                "asks, the move unties them",
            )
        receiver = call.func.value
        values: list[cst.BaseExpression] | None = [receiver]
        if isinstance(receiver, cst.Name | cst.Attribute):
            # What a name, a parameter or a `self.` attribute holds, as far as it is certain.
            values = self._held(receiver, call)
        if not values:
            return None
        # `model = model.to(device)` rebinds the instance itself: its other values say the class.
        values = [v for v in values if not _moves_itself(v, receiver)]
        # `model = torch.compile(model)`, `model = DDP(model)` (nanoGPT, after its move): the name
        # may hold a wrapper of the instance, whose attributes are not the model's: report only.
        wrapped = [v for v in values if _wraps(v, receiver)]
        values = [v for v in values if not _wraps(v, receiver)]
        if not values:
            return None
        if wrapped:
            self._doubt(
                call, f"`{_code(receiver)}` may also hold `{_code(wrapped[0])}`, a wrapper of it"
            )
        self._module_doubt = ""
        found = {self._instance_of(v) for v in values}
        if self._module_doubt:
            self._doubt(call, self._module_doubt)
        made = {self._made_by(v) for v in values} - {None}
        if len(found) == 1 and None not in found:
            name = found.pop()
            certain = on_xla and not wrapped and id(call) not in self._doubts
            if name is None:
                return None
            self._built[id(call)] = [_constructor(v) for v in values]
            return name, self._classes[name], certain
        # Some values are built by a tying class's own classmethod (nanoGPT's
        # `GPT.from_pretrained(...)`): most likely an instance, but not certainly.
        names = (found | made) - {None}
        if len(names) == 1 and all(self._instance_of(v) or self._made_by(v) for v in values):
            name = names.pop()
            self._doubt(
                call, f"`{_code(receiver)}` may also be what a classmethod of `{name}` returns"
            )
            return name, self._classes[name], False
        return None

    def _held(
        self, receiver: cst.Name | cst.Attribute, call: cst.Call, depth: int = 0
    ) -> list | None:
        """What ``receiver`` may hold at ``call``: for a name, the values of the assignments
        that reach the move (``reaching``: not those after it, TCN's `model = torch.load(f)`
        after training), with those a function makes with `global`; ``Values`` otherwise. A
        value that moves or wraps the name itself (`model = model.to(d)`, `torch.compile(model)`)
        is kept with what the name held before it."""
        found = reaching(self, receiver) if isinstance(receiver, cst.Name) else None
        if found is None:
            return Values(self).of(receiver)
        bindings, foreign = found
        direct = [assigned_value(self, b) for b in bindings]
        for binding in foreign:
            value = assigned_value(self, binding)
            if value is None:
                self._doubt(
                    call,
                    f"`{_code(receiver)}` may also be what `{_function_of(self, binding)}` binds "
                    "it to with `global`",
                )
            else:
                direct.append(value)
        if None in direct:
            return None
        leaves: list[cst.BaseExpression] = []
        for value in direct:
            inner = _itself(value, receiver)  # type: ignore[arg-type]
            values = (
                Values(self).of(value)  # type: ignore[arg-type]
                if inner is None
                else self._held(inner, call, depth + 1)
                if depth < 4
                else None
            )
            if values is None:
                return None
            leaves.extend([value] if inner is not None else [])
            leaves.extend(values)
        return leaves

    def _may_be_xla(self, device: cst.BaseExpression) -> bool:
        """Whether one value ``device`` may hold is the XLA device: a choice between it and
        another (pytorch/examples' word_language_model, `torch.device('xla' if opt.cuda else
        'cpu')` in attention-is-all-you-need once migrated)."""
        values = Values(self).of(device) if isinstance(device, cst.Name | cst.Attribute) else None
        for value in values or [device]:
            if isinstance(value, cst.Call) and self.is_any(value.func, {"torch.device"}):
                value = value.args[0].value if len(value.args) == 1 else value
            choices = [value.body, value.orelse] if isinstance(value, cst.IfExp) else [value]
            if any(is_xla_device(self, c, follow=False) for c in choices):
                return True
        return False

    def _left_to_a_person(self, device: cst.BaseExpression) -> bool:
        """A device that still says CUDA after the migration (`device = 'cuda'`, nanoGPT's
        `f'cuda:{ddp_local_rank}'`): the device pass leaves it for a person to set to the XLA
        device (TRN006, TRN026), and the move then unties the weights."""
        values = Values(self).of(device) if isinstance(device, cst.Name | cst.Attribute) else None
        if not values:
            return False
        return any(_says_cuda(v) for v in values)

    def _doubt(self, call: cst.Call, why: str) -> None:
        doubts = self._doubts.setdefault(id(call), [])
        if why not in doubts:
            doubts.append(why)

    def _why_uncertain(self, call: cst.Call) -> str:
        return "; ".join(self._doubts.get(id(call), ["the instance is not certain"]))

    def _made_by(self, value: cst.BaseExpression) -> str | None:
        """The tying class whose own attribute ``value`` calls: `Cls.from_pretrained(...)`."""
        if (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute)
            and isinstance(value.func.value, cst.Name)
            and value.func.attr.value != "to"
        ):
            return self._instance_of(cst.Call(func=value.func.value))
        return None

    def _instance_of(self, value: cst.BaseExpression) -> str | None:
        """The tying class ``value`` is an instance of: `Cls(...)`, or `Cls(...).to(...)`."""
        if (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute)
            and value.func.attr.value == "to"
        ):
            value = value.func.value
        if (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Name)
            and value.func.value in self._classes
            and (
                value.func.value in self._imported
                and value.func.value not in self.run.facts.assigned  # type: ignore[union-attr]
                or self.is_any(value.func, {value.func.value})
            )
        ):
            return value.func.value
        if (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute)
            and isinstance(value.func.value, cst.Name)
            and (name := _code(value.func)) in self._classes
            and self._module_holds(value.func.value)
        ):
            return name
        return None

    def _module_holds(self, head: cst.Name) -> bool:
        """Whether ``head`` (`model` of `model.RNNModel(...)`) holds the module its import
        binds where it is read: no other binding of it reaches there (awd-lstm-lm rebinds
        `model` to the instance after)."""
        scope = self.get_metadata(ScopeProvider, head, None)
        bindings = scope[head.value] if scope is not None else ()
        if bindings and all(isinstance(b, ImportAssignment) for b in bindings):
            return True  # bound by imports only, wherever it is read
        found = reaching(self, head)
        if found is None or not all(isinstance(b, cst.Import | cst.ImportFrom) for b in found[0]):
            return False
        if found[1]:
            self._module_doubt = (
                f"`{head.value}` may also be what `{_function_of(self, found[1][0])}` binds it "
                "to with `global`"
            )
        return True

    def _statement_move(self, statement: cst.CSTNode) -> tuple[str, cst.Call] | None:
        """`(instance code, call)` where ``statement`` is `x = <call>` or `<call>` alone."""
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            return None
        small = statement.body[0]
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            receiver = small.value.func
            if isinstance(receiver, cst.Attribute) and _chain_any(receiver.value):
                return cst.Module([]).code_for_node(receiver.value), small.value
        if (
            isinstance(small, cst.Assign)
            and len(small.targets) == 1
            and isinstance(small.value, cst.Call)
        ):
            target = small.targets[0].target
            if isinstance(target, cst.Name) or _chain_any(target):
                return cst.Module([]).code_for_node(target), small.value
        return None

    def visit_Call(self, node: cst.Call) -> None:
        # A move inside an expression: reported (the statement moves are handled per block).
        if not self._classes:
            return
        moved = self._moved_class(node)
        if moved is None:
            return
        if self._handled(node):
            return
        name, ties, _certain = moved
        parent = self.get_metadata(ParentNodeProvider, node, None)
        statement = isinstance(parent, cst.Expr | cst.Assign) and parent.value is node
        why = (
            "a statement the tie cannot follow" if statement else "the move is inside an expression"
        )
        self._report_untied(node, name, ties, why)

    def _handled(self, call: cst.Call) -> bool:
        """Whether ``call`` is the move of a statement of a block that ``_retie`` handles."""
        small = self.get_metadata(ParentNodeProvider, call, None)
        line = self.get_metadata(ParentNodeProvider, small, None) if small is not None else None
        block = self.get_metadata(ParentNodeProvider, line, None) if line is not None else None
        if not isinstance(block, cst.IndentedBlock | cst.Module):
            return False
        move = self._statement_move(line)  # type: ignore[arg-type]
        return move is not None and move[1] is call

    def _report_untied(
        self, node: cst.CSTNode, name: str, ties: Ties, why: str, instance: str = "model"
    ) -> None:
        if ties.pretrained:
            message = (
                f"`{name}` (a PreTrainedModel) moved to the XLA device: the move unties its tied "
                "weights; call model.tie_weights() after moving it to the XLA device"
            )
        else:
            pairs = _pairs(ties) or "its weights"
            again = "tie them again on the moved model"
            if ties.carried and not ties.conditional:
                asked = ask_again(self, ties, self._built.get(id(node), []), node)
                if isinstance(asked, dict):
                    # The caller's test, where only the instance was in doubt (awd-lstm-lm).
                    code = "; ".join(_one_line(s) for s in _retie_statements(instance, ties, asked))
                    again += f" (`{code}`)" if code else ""
                else:
                    tests = " / ".join(dict.fromkeys(f"`{t}`" for _, _, t in ties.carried))
                    again += f" where {tests} held for the arguments that built it"
            message = (
                f"`{name}` ties {pairs} in __init__ and moving it to the XLA device unties them "
                f"({why}): {again}"
            )
        self.report(node, TiedWeightsUntied, message, False)

    # -- the insertion -----------------------------------------------------------------------

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        body = self._retie(original_node.body, updated_node.body)
        return updated_node.with_changes(body=body) if body is not None else updated_node

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        body = self._retie(original_node.body, updated_node.body)
        return updated_node.with_changes(body=body) if body is not None else updated_node

    def _retie(self, original: tuple, updated: tuple) -> list | None:
        if not self._classes or len(original) != len(updated):
            return None
        body: list = []
        changed = False
        for index, (before, after) in enumerate(zip(original, updated, strict=True)):
            body.append(after)
            move = self._statement_move(before)
            if move is None:
                continue
            instance, call = move
            moved = self._moved_class(call)
            if moved is None:
                continue
            name, ties, certain = moved
            if ties.pretrained and _calls_tie_weights(original[index + 1 : index + 2], instance):
                continue
            if ties.pretrained or ties.conditional or not certain:
                why = (
                    "a PreTrainedModel"
                    if ties.pretrained
                    else "the tie depends on a condition"
                    if ties.conditional
                    else self._why_uncertain(call)
                )
                self._report_untied(call, name, ties, why, instance)
                continue
            asked = (
                ask_again(self, ties, self._built.get(id(call), []), call) if ties.carried else {}
            )
            if isinstance(asked, str):
                self._report_untied(call, name, ties, asked, instance)
                continue
            wanted = _retie_statements(instance, ties, asked)
            if not wanted:
                continue  # tied only under a test its arguments never pass
            following = [_code(s.with_changes(leading_lines=())) for s in original[index + 1 :]]
            if [_code(w) for w in wanted] == following[: len(wanted)]:
                continue  # already tied again (a second run)
            if not self.report(
                call,
                TiedWeightsRetie,
                f"`{name}` ties {_pairs(ties)} in __init__ and moving it to the XLA device "
                "unties them: tied again after the move" + _under(asked),
                True,
            ):
                continue
            wanted[0] = wanted[0].with_changes(
                leading_lines=[cst.EmptyLine(comment=cst.Comment(_COMMENT))]
            )
            body.extend(wanted)
            changed = True
        return body if changed else None


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _itself(value: cst.BaseExpression, receiver: cst.Name) -> cst.Name | None:
    """The read of ``receiver`` in a value that moves it (`x.to(...)`) or wraps it (`f(x)`)."""
    if _moves_itself(value, receiver):
        return value.func.value  # type: ignore[attr-defined,return-value]
    if _wraps(value, receiver):
        return value.args[0].value  # type: ignore[attr-defined,return-value]
    return None


def _function_of(owner: Pass, node: cst.CSTNode) -> str:
    current = owner.get_metadata(ParentNodeProvider, node, None)
    while current is not None and not isinstance(current, cst.FunctionDef):
        current = owner.get_metadata(ParentNodeProvider, current, None)
    return current.name.value if current is not None else "a function"


def _one_line(statement: cst.BaseStatement) -> str:
    """`if t: a = b` for a statement of ``_retie_statements``."""
    lines = [line.strip() for line in _code(statement).strip().splitlines()]
    return " ".join(lines) if len(lines) < 3 else lines[0] + " " + "; ".join(lines[1:])


def _under(asked: dict[str, Asked]) -> str:
    """ " under `if t:`" for each test asked in the caller's terms, in `__init__`'s order."""
    tests = [f"`if {a.test}:`" for a in asked.values() if a.test]
    return f" under {' and '.join(tests)}" if tests else ""


def _pairs(ties: Ties) -> str:
    """ "a = b, c = d if t": the ties, each with the test of `__init__`'s it depends on."""
    pairs = [f"{a} = {b}" for a, b in ties.certain]
    pairs += [f"{a} = {b} (when `{t}`)" for a, b, t in ties.carried]
    return ", ".join(pairs)


def _retie_statements(
    instance: str, ties: Ties, asked: dict[str, Asked]
) -> list[cst.BaseStatement]:
    """The ties made again on ``instance``, in `__init__`'s order: the certain ones, and those
    whose test holds here (always, or under an `if` that asks it in the caller's terms; ties
    one after another under one test share the `if`)."""
    groups: list[tuple[str | None, list[str]]] = []
    for a, b, test in ties.ordered:
        if test is not None and not asked[test].always and asked[test].test is None:
            continue  # never made for these arguments
        guard = asked[test].test if test is not None else None
        line = f"{instance}.{a} = {instance}.{b}\n"
        if groups and guard is not None and groups[-1][0] == guard:
            groups[-1][1].append(line)
        else:
            groups.append((guard, [line]))
    return [
        cst.parse_statement(
            "".join(body) if guard is None else f"if {guard}:\n" + "".join("    " + x for x in body)
        )
        for guard, body in groups
    ]


def _constructor(value: cst.BaseExpression) -> cst.Call:
    """The call of the class in ``value``: `Cls(...)` itself, or the one `Cls(...).to(...)` moves."""
    if (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value == "to"
        and isinstance(value.func.value, cst.Call)
    ):
        return value.func.value
    assert isinstance(value, cst.Call)
    return value


def _wraps(value: cst.BaseExpression, receiver: cst.BaseExpression) -> bool:
    """`f(x, ...)` for a receiver `x`: a wrapper of what the name held (`torch.compile(model)`)."""
    if not isinstance(value, cst.Call) or not value.args or value.args[0].keyword:
        return False
    first = value.args[0].value
    return isinstance(first, cst.Name | cst.Attribute) and _code(first) == _code(receiver)


def _says_cuda(value: cst.BaseExpression) -> bool:
    if isinstance(value, cst.SimpleString):
        return str(value.evaluated_value).startswith("cuda")
    if isinstance(value, cst.FormattedString) and value.parts:
        first = value.parts[0]
        return isinstance(first, cst.FormattedStringText) and first.value.startswith("cuda")
    return False


def _moves_itself(value: cst.BaseExpression, receiver: cst.BaseExpression) -> bool:
    """`x.to(...)` for a receiver `x` (a name or an attribute chain)."""
    return (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value == "to"
        and value.func.value.deep_equals(receiver)
    )


def _calls_tie_weights(statements: tuple, instance: str) -> bool:
    """Whether ``statements`` start with `<instance>.tie_weights()`."""
    return bool(statements) and (
        isinstance(statements[0], cst.SimpleStatementLine)
        and cst.Module([]).code_for_node(statements[0].body[0]).strip()
        == f"{instance}.tie_weights()"
    )


def _chain_any(node: cst.BaseExpression) -> bool:
    """A plain attribute chain on a name (`self.model`)."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name)
