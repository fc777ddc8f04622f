"""`torch.distributions` classes and their argument validation, as data, for the
``distribution-validation`` pass (TRN128) and the program model (a module that turns validation
off for the whole process).

With validation on (the default, `validate_args=None`), building a distribution checks each
parameter against its constraint and `log_prob` checks its value, each reading
`constraint.check(...).all()` on the host ([measured-distribution-validation]).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from trncodemod.analysis.training import dotted

# Where `validate_args` is in each class's constructor, counted from the first parameter after
# `self` (torch 2.9, `inspect.signature`): `Normal(mu, std, False)` gives it by position.
# Left out: `Independent`, whose own checks read nothing (no parameter constraints; its
# `log_prob` is its base's: measured 0 copies), and the bases `Distribution` and
# `ExponentialFamily`, which are not built.
VALIDATE_ARGS_POSITION: dict[str, int] = {
    "Bernoulli": 2,
    "Beta": 2,
    "Binomial": 3,
    "Categorical": 2,
    "Cauchy": 2,
    "Chi2": 1,
    "ContinuousBernoulli": 3,
    "Dirichlet": 1,
    "Exponential": 1,
    "FisherSnedecor": 2,
    "Gamma": 2,
    "GeneralizedPareto": 3,
    "Geometric": 2,
    "Gumbel": 2,
    "HalfCauchy": 1,
    "HalfNormal": 1,
    "InverseGamma": 2,
    "Kumaraswamy": 2,
    "LKJCholesky": 2,
    "Laplace": 2,
    "LogNormal": 2,
    "LogisticNormal": 2,
    "LowRankMultivariateNormal": 3,
    "MixtureSameFamily": 2,
    "Multinomial": 3,
    "MultivariateNormal": 4,
    "NegativeBinomial": 3,
    "Normal": 2,
    "OneHotCategorical": 2,
    "OneHotCategoricalStraightThrough": 2,
    "Pareto": 2,
    "Poisson": 1,
    "RelaxedBernoulli": 3,
    "RelaxedOneHotCategorical": 3,
    "StudentT": 3,
    "TransformedDistribution": 2,
    "Uniform": 2,
    "VonMises": 2,
    "Weibull": 2,
    "Wishart": 4,
}
_PACKAGE = "torch.distributions"
SWITCH = "set_default_validate_args"


def distribution_class(qualified: str) -> str | None:
    """The class a qualified name builds: ``torch.distributions.Normal`` and
    ``torch.distributions.normal.Normal`` are ``Normal``; anything else None."""
    parts = qualified.split(".")
    if qualified.startswith(f"{_PACKAGE}.") and len(parts) in (3, 4):
        name = parts[-1]
        return name if name in VALIDATE_ARGS_POSITION else None
    return None


def turns_validation_off(tree: ast.AST, full_name: Callable[[str], str]) -> bool:
    """Whether the module calls ``torch.distributions.Distribution.set_default_validate_args(
    False)`` (on any class of the package: the method sets the one default of every
    distribution). ``full_name``: a dotted reference as the module's imports resolve it."""
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == SWITCH
        ):
            continue
        receiver = dotted(node.func.value)
        if receiver is None or not full_name(receiver).startswith(f"{_PACKAGE}."):
            continue
        value = (
            node.args[0]
            if node.args
            else next((k.value for k in node.keywords if k.arg == "value"), None)
        )
        if isinstance(value, ast.Constant) and value.value is False:
            return True
    return False
