"""Checks of torch's version folded on a target's torch (TRN068), against what Python itself
gives with `torch.__version__` a version-comparing string (as torch's TorchVersion is)."""

from __future__ import annotations

import ast

import pytest

from trncodemod.analysis.torch_version import decide


def _decide(code: str, version: str = "2.9.0") -> bool | None:
    tree = ast.parse(code, mode="eval")
    return decide(tree.body, version, lambda n: ast.unparse(n) == "torch.__version__")


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("torch.__version__.split('.')[0] == '1'", False),
        ("int(torch.__version__.split('.')[0]) >= 1", True),
        ("int(torch.__version__.split('.')[1]) >= 4", True),
        ("torch.__version__ < '1.5'", False),
        ("torch.__version__ >= '2'", True),
        ("torch.__version__ >= (2, 10)", False),
        ("torch.__version__ >= '2.9.0'", True),
        ("torch.__version__[:3] == '2.9'", True),
        ("float(torch.__version__[:3]) < 1.4", False),
        ("torch.__version__.startswith(('1.7', '1.8'))", False),
        ("not torch.__version__.startswith('1.')", True),
        ("LooseVersion(torch.__version__) >= LooseVersion('0.4.0')", True),
        ("version.parse(torch.__version__) < version.parse('1.13')", False),
        ("version.parse(torch.__version__).major == 2", True),
        ("version.parse(torch.__version__).release >= (2, 1)", True),
        ("'1.' in torch.__version__", False),
        ("torch.__version__ >= '1.6' and torch.__version__ < '2'", False),
    ],
)
def test_a_check_folds_to_what_torch_2_9_gives(code: str, expected: bool) -> None:
    assert _decide(code) is expected


def test_a_local_version_suffix_compares_by_the_release() -> None:
    assert _decide("torch.__version__ >= '2.9'", "2.9.0+cu128") is True
    assert _decide("torch.__version__.split('+')[0] == '2.9.0'", "2.9.0+cu128") is True


@pytest.mark.parametrize(
    "code",
    [
        "tuple(int(x) for x in torch.__version__.split('.')[:2]) >= (1, 8)",
        "TORCH_VERSION.startswith('1.')",
        "torch.__version__.split('.')[7] == '1'",
        "check_version(torch.__version__, '1.12.0')",
        "int(torch.__version__) > 1",
    ],
)
def test_what_it_cannot_fold_is_undecided(code: str) -> None:
    assert _decide(code) is None
