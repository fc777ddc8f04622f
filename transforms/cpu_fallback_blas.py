"""The matmul spelling of a BLAS-style call that torch-xla runs on the CPU (TRN420): `addmm` with a
scale, `addmv` and `addbmm` at any scale ([measured-scaled-blas]). `torch.addmm(M, A, B,
beta=b, alpha=a)` is `b * M + a * (A @ B)`, with a factor of 1 dropped and a negative `alpha`
spelled as a subtraction (`M - 2.0 * (A @ B)`, the same value: negation is exact); `addmv` is the
same with `A @ v`, `addbmm` with `(A @ B).sum(0)`.

Written only for a call whose result is a value: its scales literal numbers (`beta` not 0: `beta=0`
does not read `M`, NaN included, which `0 * M` would), no `out=`, not the in-place `_` form, and
no comment inside it to lose. Everywhere else the finding says what to write.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
import libcst.matchers as m

from trncodemod.analysis.fallback_facts import number

# What each op multiplies, by its operands' names in the fix text.
_PRODUCT = {"addmm": "{} @ {}", "addmv": "{} @ {}", "addbmm": "({} @ {}).sum(0)"}
_LETTERS = {"addmm": ("M", "A", "B"), "addmv": ("m", "A", "v"), "addbmm": ("M", "A", "B")}
# Where the replacing `M - 2.0 * (A @ B)` needs no parentheses: it is a whole value there.
_WHOLE_VALUE = (
    cst.Assign,
    cst.AnnAssign,
    cst.AugAssign,
    cst.Return,
    cst.Arg,
    cst.Expr,
    cst.Element,
)
_ADDITIVE = (
    cst.Add,
    cst.Subtract,
    cst.Multiply,
    cst.Divide,
    cst.FloorDivide,
    cst.Modulo,
    cst.MatrixMultiply,
    cst.Power,
)
_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float, cst.Await)


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _tight(node: cst.BaseExpression) -> bool:
    """Binds tighter than `*` and `@`: an operand of either as it is."""
    if node.lpar or isinstance(node, _ATOMS):
        return True
    if isinstance(node, cst.UnaryOperation):
        return not isinstance(node.operator, cst.Not)
    return isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Power)


def _additive(node: cst.BaseExpression) -> bool:
    """May stand as the left operand of `+` or `-` as it is."""
    return _tight(node) or (
        isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _ADDITIVE)
    )


def _operand(node: cst.BaseExpression, fits: bool) -> str:
    return _code(node) if fits else f"({_code(node)})"


@dataclass(frozen=True)
class MatmulForm:
    """How one call is written as a matmul: the op, whether its `M` is the receiver
    (`M.addmm(A, B)`), the scales as written (None where absent), and whether the whole needs
    parentheses where it stands."""

    kind: str
    receiver: bool
    alpha: cst.BaseExpression | None
    beta: cst.BaseExpression | None
    wrap: bool

    def text(self, call: cst.Call, whole: bool = True) -> str:
        """The matmul spelling of ``call`` (the call as it is now: its operands may have been
        rewritten themselves); with ``whole`` False, without the parentheses its place needs."""
        args = [a.value for a in call.args if a.keyword is None]
        if self.receiver:
            args.insert(0, call.func.value)  # type: ignore[attr-defined]
        bias, first, second = args
        product = _PRODUCT[self.kind].format(
            _operand(first, _tight(first)), _operand(second, _tight(second))
        )
        alpha = 1 if self.alpha is None else number(self.alpha)
        beta = 1 if self.beta is None else number(self.beta)
        if beta == 1:
            left = _operand(bias, _additive(bias))
        else:
            left = f"{_code(self.beta)} * {_operand(bias, _tight(bias))}"  # type: ignore[arg-type]
        if self.kind != "addbmm" and alpha not in (1, -1):
            product = f"({product})"
        if alpha in (1, -1):
            term = product
        else:
            magnitude = self.alpha
            if isinstance(magnitude, cst.UnaryOperation):
                magnitude = magnitude.expression  # `-2.0` → `- 2.0 * (...)`
            term = f"{_code(magnitude)} * {product}"  # type: ignore[arg-type]
        text = f"{left} {'-' if alpha < 0 else '+'} {term}"  # type: ignore[operator]
        if whole and (self.wrap or "\n" in text):
            text = f"({text})"
        return text

    def expression(self, call: cst.Call) -> cst.BaseExpression:
        new = cst.parse_expression(self.text(call))
        if call.lpar:  # `(torch.addmm(...)).t()` keeps its own parentheses
            new = new.with_changes(lpar=call.lpar, rpar=call.rpar)
        return new


def matmul_form(
    call: cst.Call, kind: str, receiver: bool, parent: cst.CSTNode | None
) -> MatmulForm | str:
    """The matmul spelling of ``call`` (``kind`` is ``addmm``, ``addmv`` or ``addbmm``, the
    in-place form ends in `_`), or what to write by hand where it is not rewritten."""
    inplace = kind.endswith("_")
    kind = kind.rstrip("_")
    bias, first, second = _LETTERS[kind]
    product = _PRODUCT[kind].format(first, second)
    scaled = f"({product})" if kind != "addbmm" else product
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if inplace:
        return (
            f"in place, `{bias}.mul_(beta).add_({product}, alpha=alpha)` (`mul_` dropped where "
            "`beta` is 1)"
        )
    if "out" in keywords:
        return f"`out.copy_(beta * {bias} + alpha * {scaled})` in place of `out=`"
    beta, alpha = keywords.get("beta"), keywords.get("alpha")
    if beta is not None and number(beta) == 0:
        return (
            f"with `beta=0` it is `alpha * {scaled}`: `{bias}` is not read, so its NaN and inf "
            f"do not reach the result as they would through `0 * {bias}`"
        )
    generic = f"write it as a matmul, `beta * {bias} + alpha * {scaled}` (lowered at every scale)"
    positional = [a for a in call.args if a.keyword is None]
    if (
        any(a.star for a in call.args)
        or len(positional) != (2 if receiver else 3)
        or set(keywords) - {"alpha", "beta"}
        or any(value is not None and number(value) is None for value in (alpha, beta))
        or (alpha is not None and number(alpha) == 0)
        or m.findall(call, m.Comment())
    ):
        return generic
    wrap = not isinstance(parent, _WHOLE_VALUE) and not call.lpar
    return MatmulForm(kind, receiver, alpha, beta, wrap)
