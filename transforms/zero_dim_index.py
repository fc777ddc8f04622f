"""A loss indexed as the one-element tensor it was before torch 0.4 (`loss.data[0]`).

Since torch 0.4 a loss is a 0-dim tensor ([torch-04-migration]), and indexing one raises
`IndexError: invalid index of a 0-dim tensor` on the CPU and on the XLA device alike
([measured-zero-dim-index]): the program stops at its first logging step on the target's torch,
as on any torch since 0.5. Where the value is certainly a loss (a name every binding of which
is a criterion's call with its default reduction, a functional loss, or a mean or sum of the
whole tensor, or a sum of such), the index becomes `.item()`, which gives what the index gave
on torch 0.3; any other `x.data[0]` is a tensor's first row and stays.
"""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m
from libcst.metadata import Assignment, ParentNodeProvider, ScopeProvider

from trncodemod.analysis.facts import FileFacts
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass

# `torch.nn.functional` losses: each returns a 0-dim tensor unless asked for one per element.
_FUNCTIONAL_LOSSES = frozenset(
    f"torch.nn.functional.{name}"
    for name in (
        "binary_cross_entropy",
        "binary_cross_entropy_with_logits",
        "cosine_embedding_loss",
        "cross_entropy",
        "ctc_loss",
        "gaussian_nll_loss",
        "hinge_embedding_loss",
        "huber_loss",
        "kl_div",
        "l1_loss",
        "margin_ranking_loss",
        "mse_loss",
        "multi_margin_loss",
        "multilabel_margin_loss",
        "multilabel_soft_margin_loss",
        "nll_loss",
        "poisson_nll_loss",
        "smooth_l1_loss",
        "soft_margin_loss",
        "triplet_margin_loss",
    )
)
# Reductions that keep a loss 0-dim; `reduce=False` (torch 0.3) and `reduction="none"` do not.
_SCALAR_REDUCTIONS = frozenset({"mean", "sum", "batchmean"})
_WHOLE_REDUCTIONS = frozenset({"mean", "sum"})
_WHOLE_FUNCTIONS = frozenset({"torch.sum", "torch.mean"})
# A 0-dim tensor's methods that scale it by a number (torch 0.3 code chains the in-place ones).
_SCALING_METHODS = frozenset(
    {"mul", "mul_", "div", "div_", "add", "add_", "sub", "sub_", "neg", "neg_", "abs", "sqrt"}
)


class ZeroDimIndex(Rule):
    """## What it does
    Rewrites `loss.data[0]` to `loss.item()` where `loss` is certainly a 0-dim
    tensor: every binding of the name is a call of a `torch.nn` loss module (`nn.MSELoss()`,
    bound to a name first) or of a `torch.nn.functional` loss, each with its default reduction
    (or `"mean"`/`"sum"`), a `.mean()`/`.sum()` of a whole tensor, or a sum, difference or
    multiple of such values; or a name that starts at a number and to which the scope only adds
    such values (`loss = 0`, then `loss += criterion(output, target[c])` over an RNN's time
    steps). In a function whose bindings of the name are all plain assignments among the
    statements of its body (none under an `if`, a loop or a `with`), the binding that reaches
    the read is the last one before it (`loss = (q - target).pow(2) * w`, then `loss =
    loss.mean()`, then `return loss`). A negated 0-dim value (`-(p * q.log()).sum(1).mean()`)
    and one divided or multiplied by a name bound only to a number (`x.sum() / num_quant`) are
    0-dim too. A loss's call read so (`F.nll_loss(output, target, size_average=False).data[0]`)
    becomes the call's `.item()`. Any other index stays: `x.data[0]` of a batch is its first
    row, and a bare `x[0]` may be a tuple's first item.

    ## Why
    Code written for torch 0.3 read a loss as a one-element tensor. Since torch 0.4 a loss is a
    0-dim tensor [torch-04-migration], and on torch 2.9 indexing it raises `IndexError: invalid
    index of a 0-dim tensor. Use tensor.item()`, on the CPU and on the XLA device
    [measured-zero-dim-index]: the port would stop at the first step that logs. `.item()` gives
    the number the index gave on torch 0.3.

    ## Example
    ```python
    loss = loss_func(output, target)
    print("train loss: %.4f" % loss.data[0])
    ```

    ## Use instead
    ```python
    loss = loss_func(output, target)
    print("train loss: %.4f" % loss.item())
    ```
    """

    code = "TRN064"
    name = "zero-dim-index"
    summary = "`loss.data[0]` on a 0-dim loss raises IndexError since torch 0.5 → `loss.item()`"
    fixable = True
    safety = Safety.SAFE
    severity = Severity.BLOCKER
    sources = ("torch-04-migration", "measured-zero-dim-index")


class OldIndexRead(Rule):
    """## What it does
    Reports an `x.data[0]` that TRN064 does not rewrite (it cannot show `x` is 0-dim) and whose
    value the program uses as it is: bound to a name, passed to a call, returned, compared.
    An accumulation (`total += loss.data[0]`) is such a use. Not a store (`w.data[0] = 0`,
    `w.data[0] += 1`), an index or attribute of it (`x.data[0][1]`,
    `x.data[0].item()`), a conversion (`int(x.data[0])`), an argument of a torch function
    (`torch.clamp(x, 0, c.data[0])`, which takes a 0-dim tensor), or a print. Nothing is
    rewritten.

    ## Why
    Code written for torch 0.3 read a one-dimensional tensor's element as `x.data[0]`, which
    gave a Python number; since torch 0.4 it gives a 0-dim tensor [torch-04-migration], and on
    the target one on the device. Where the program uses it as a number (an environment's
    action checked with `action_space.contains`, a list index, a dictionary key, NumPy), it
    fails or behaves differently on the target's torch, as on any torch since 0.4: the verdict
    of an entry point that runs the line says "cannot tell" at it, not "runs".

    ## Example
    ```python
    action = q_value.max(1)[1].data[0]
    next_state, reward, done, _ = env.step(action)
    ```

    ## Use instead
    ```python
    action = q_value.max(1)[1].data[0].item()
    ```
    """

    code = "TRN065"
    name = "old-index-read"
    summary = "`x.data[0]` read as torch 0.3 did (a number then, a tensor since 0.4; report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    sources = ("torch-04-migration",)


def reads_zero_dim(facts: FileFacts) -> bool:
    """Whether the file may hold a `.data[0]` read (the torch-imports pass's candidate test)."""
    return ".data[0]" in facts.text


class ZeroDimIndexRewrite(Pass):
    """The rewrite, for the torch-imports pass (APIs the target's torch no longer serves)."""

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        if not _index_is_zero(original_node):
            return updated_node
        # `loss.data[0]`, torch 0.3's way to read a loss, also of a loss's call
        # (`F.nll_loss(output, target, size_average=False).data[0]`); a bare `x[0]` is left (a
        # tuple's first item, a batch's first row).
        if not m.matches(original_node.value, m.Attribute(attr=m.Name("data"))):
            return updated_node
        value = original_node.value.value  # type: ignore[attr-defined]
        if not isinstance(value, cst.Name | cst.Call) or not self._scalar(value, 0):
            if self._used_as_is(original_node):
                parent = self.get_metadata(ParentNodeProvider, original_node, None)
                if isinstance(parent, cst.AugAssign):
                    message = (
                        f"`{_code(original_node)}` is added up as torch 0.3 read a loss, as a "
                        "Python number: where it is a loss (a 0-dim tensor since torch 0.4) it "
                        f"raises IndexError on the target's torch: write `{_code(value)}.item()`"
                        f"; where it has a dimension, `{_code(original_node)}.item()`"
                    )
                else:
                    message = (
                        f"`{_code(original_node)}` reads element 0 as torch 0.3 did, where it "
                        "was a Python number; since torch 0.4 it is a tensor (on the target, on "
                        "the device): where the program uses it as a number (an environment's "
                        f"action, an index, a key), write `{_code(original_node)}.item()`"
                    )
                self.report(original_node, OldIndexRead, message, False)
            return updated_node
        read = updated_node.value.value  # type: ignore[attr-defined]
        message = (
            f"`{_code(original_node)}` indexes a 0-dim tensor (a loss, or a whole tensor's sum "
            f"or mean, since torch 0.4): it raises IndexError on the target's torch → "
            f"`{_code(value)}.item()`"
        )
        if not self.report(original_node, ZeroDimIndex, message, True):
            return updated_node
        return cst.Call(func=cst.Attribute(value=read, attr=cst.Name("item")))

    def _scalar(self, node: cst.BaseExpression, depth: int) -> bool:
        """Whether ``node`` is certainly a 0-dim tensor (see the rule)."""
        if depth > 6:
            return False
        if isinstance(node, cst.Name):
            values = self._reaching(node) or self.bound_values(node)
            if values is None:
                return self._summed(node, depth)
            return bool(values) and all(self._scalar(v, depth + 1) for v in values)  # type: ignore[union-attr]
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus | cst.Plus):
            return self._scalar(node.expression, depth + 1)  # `-(p * q.log()).sum(1).mean()`
        if isinstance(node, cst.BinaryOperation) and isinstance(
            node.operator, cst.Add | cst.Subtract | cst.Multiply | cst.Divide
        ):
            sides = [node.left, node.right]
            numbers = [s for s in sides if self._number(s)]
            rest = [s for s in sides if s not in numbers]
            return bool(rest) and all(self._scalar(s, depth + 1) for s in rest)
        if not isinstance(node, cst.Call):
            return False
        if (
            _reduces_all(node)
            or self.module_names(node.func) & _WHOLE_FUNCTIONS
            and (len(node.args) == 1 and node.args[0].keyword is None and not node.args[0].star)
        ):
            return True  # `x.sum()`, `torch.sum(x)`
        if (
            isinstance(node.func, cst.Attribute)
            and node.func.attr.value in _SCALING_METHODS
            and all(
                isinstance(a.value, cst.Integer | cst.Float | cst.UnaryOperation) for a in node.args
            )
        ):
            return self._scalar(node.func.value, depth + 1)  # `torch.sum(x).mul_(-0.5)`
        if not _keeps_reduction(node):
            return False
        if self.module_names(node.func) & _FUNCTIONAL_LOSSES:
            return True
        if isinstance(node.func, cst.Name) and (defined := self._own_function(node.func)):
            # A loss function of the file: every value it returns is one.
            returned = _returned(defined)
            return bool(returned) and all(
                r is not None and self._scalar(r, depth + 1) for r in returned
            )
        if isinstance(node.func, cst.Name):
            modules = self.bound_values(node.func)
            return bool(modules) and all(
                isinstance(v, cst.Call) and _keeps_reduction(v) and self._loss_module(v)
                for v in modules  # type: ignore[union-attr]
            )
        return False

    def _used_as_is(self, node: cst.Subscript) -> bool:
        """The index's value is used as it is: not stored to, indexed, converted or printed."""
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if isinstance(parent, cst.Subscript | cst.Attribute | cst.AssignTarget):
            return False  # `x.data[0][1]`, `x.data[0].item()`, `w.data[0] = 0`
        if isinstance(parent, cst.AugAssign):
            # `w.data[0] += 1` stores; `total += loss.data[0]` adds what it reads to a number
            return parent.target is not node
        if isinstance(parent, cst.Arg):
            call = self.get_metadata(ParentNodeProvider, parent, None)
            if isinstance(call, cst.Call) and isinstance(call.func, cst.Name):
                if call.func.value in ("int", "float", "bool", "print", "str", "repr"):
                    return False
            if isinstance(call, cst.Call) and any(
                name.startswith("torch.") for name in self.module_names(call.func)
            ):
                return False  # `torch.clamp(x, 0, c.data[0])`: torch takes a 0-dim tensor there
        current: cst.CSTNode | None = node
        while current is not None:  # inside a print or a format: shown, not used as a number
            if isinstance(current, cst.Call) and m.matches(current.func, m.Name("print")):
                return False
            if isinstance(current, cst.FormattedString | cst.SimpleStatementLine):
                return not isinstance(current, cst.FormattedString)
            if (
                isinstance(current, cst.BinaryOperation)
                and isinstance(current.operator, cst.Modulo)
                and isinstance(current.left, cst.SimpleString | cst.ConcatenatedString)
            ):
                return False  # `"%.4f" % x.data[0]`
            current = self.get_metadata(ParentNodeProvider, current, None)
        return True

    def _number(self, node: cst.BaseExpression) -> bool:
        """A number written here, or a name every binding of which is one (`num_quant = 51`)."""
        if isinstance(node, cst.Integer | cst.Float):
            return True
        if not isinstance(node, cst.Name):
            return False
        values = self.bound_values(node)
        return bool(values) and all(isinstance(v, cst.Integer | cst.Float) for v in values)  # type: ignore[union-attr]

    def _reaching(self, name: cst.Name) -> list[cst.BaseExpression] | None:
        """The one value that reaches ``name`` in a function whose every binding of the name is
        an assignment among the statements of its body, none under an `if`, a loop or a `with`
        (`loss = (q - target).pow(2) * w`, then `loss = loss.mean()`, then `return loss`):
        the last one before the statement that reads it. None where that is not so."""
        statement: cst.CSTNode | None = name
        function = None
        while statement is not None:
            parent = self.get_metadata(ParentNodeProvider, statement, None)
            if isinstance(parent, cst.IndentedBlock):
                function = self.get_metadata(ParentNodeProvider, parent, None)
                break
            statement = parent
        if not isinstance(function, cst.FunctionDef) or statement is None:
            return None
        body = list(function.body.body)
        scope = self.get_metadata(ScopeProvider, name, None)
        if scope is None or statement not in body:
            return None
        reads_at = body.index(statement)
        found: list[tuple[int, cst.BaseExpression]] = []
        for assignment in scope[name.value]:
            if not isinstance(assignment, Assignment):
                return None
            target = self.get_metadata(ParentNodeProvider, assignment.node, None)
            assign = self.get_metadata(ParentNodeProvider, target, None) if target else None
            line = self.get_metadata(ParentNodeProvider, assign, None) if assign else None
            if not (
                isinstance(target, cst.AssignTarget)
                and target.target is assignment.node
                and isinstance(assign, cst.Assign)
                and line in body
            ):
                return None
            found.append((body.index(line), assign.value))
        before = [value for at, value in sorted(found, key=lambda f: f[0]) if at < reads_at]
        return before[-1:] or None

    def _summed(self, name: cst.Name, depth: int) -> bool:
        """``name`` starts at a number and its scope adds losses to it (`loss = 0`, then
        `loss += criterion(output, target[c])` over an RNN's time steps): every binding of it
        is a number or a `+=` of a 0-dim tensor, and one is such a `+=`."""
        scope = self.get_metadata(ScopeProvider, name, None)
        assignments = scope[name.value] if scope is not None else ()
        added = False
        for assignment in assignments:
            if not isinstance(assignment, Assignment):
                return False
            parent = self.get_metadata(ParentNodeProvider, assignment.node, None)
            if isinstance(parent, cst.AugAssign) and parent.target is assignment.node:
                if not (
                    isinstance(parent.operator, cst.AddAssign)
                    and self._scalar(parent.value, depth + 1)
                ):
                    return False
                added = True
            elif not (
                isinstance(parent, cst.AssignTarget)
                and parent.target is assignment.node
                and isinstance(
                    self.get_metadata(ParentNodeProvider, parent).value, cst.Integer | cst.Float
                )
            ):
                return False
        return added

    def _own_function(self, name: cst.Name) -> cst.FunctionDef | None:
        """The function ``name`` calls, where its one binding is a `def` of the file."""
        scope = self.get_metadata(ScopeProvider, name, None)
        if scope is None or name.value not in scope:
            return None
        bindings = list(scope[name.value])
        if len(bindings) != 1 or not isinstance(bindings[0], Assignment):
            return None
        node = bindings[0].node
        return node if isinstance(node, cst.FunctionDef) and not node.asynchronous else None

    def _loss_module(self, call: cst.Call) -> bool:
        names = self.module_names(call.func)
        return any(
            name.startswith("torch.nn.")
            and name.endswith("Loss")
            and not name.endswith("WithLoss")  # AdaptiveLogSoftmaxWithLoss returns a pair
            for name in names
        )


def _returned(function: cst.FunctionDef) -> list[cst.BaseExpression | None]:
    """What each `return` of ``function`` gives (None for a bare one), not counting those of
    functions and classes inside it; a generator gives no value to judge."""
    found: list[cst.BaseExpression | None] = []

    class _Returns(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is function

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            return False

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

        def visit_Return(self, node: cst.Return) -> None:
            found.append(node.value)

        def visit_Yield(self, node: cst.Yield) -> None:
            found.append(None)

    function.visit(_Returns())
    return found


def _index_is_zero(node: cst.Subscript) -> bool:
    if len(node.slice) != 1:
        return False
    element = node.slice[0].slice
    return (
        isinstance(element, cst.Index)
        and isinstance(element.value, cst.Integer)
        and element.value.evaluated_value == 0
    )


def _reduces_all(call: cst.Call) -> bool:
    """`x.mean()` or `x.sum()`: every element reduced to one."""
    return (
        isinstance(call.func, cst.Attribute)
        and call.func.attr.value in _WHOLE_REDUCTIONS
        and not call.args
    )


def _keeps_reduction(call: cst.Call) -> bool:
    """No keyword that makes a loss one value per element."""
    for arg in call.args:
        if arg.keyword is None:
            continue
        if arg.keyword.value == "reduce" and not (
            isinstance(arg.value, cst.Name) and arg.value.value == "True"
        ):
            return False  # torch 0.3's `reduce=False`: a loss per element
        if arg.keyword.value == "reduction" and not (
            isinstance(arg.value, cst.SimpleString)
            and arg.value.evaluated_value in _SCALAR_REDUCTIONS
        ):
            return False
    return True


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)
