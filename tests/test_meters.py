"""Which classes can hold a loss as a tensor (``analysis.meters``, TRN126): the program model
asks it for every class; the item-hoist pass rewrites `meter.update(loss.item(), n)` only for
one it accepts."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from trncodemod.analysis.meters import module_meters

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "item-hoist" / "meter_update.in.py"
# pytorch/examples' ImageNet AverageMeter, as the golden case that TRN126 fires on has it.
AVERAGE_METER = next(
    ast.get_source_segment(GOLDEN.read_text(), node) or ""
    for node in ast.parse(GOLDEN.read_text()).body
    if isinstance(node, ast.ClassDef) and node.name == "AverageMeter"
)


def _meters(source: str) -> dict:
    return module_meters(ast.parse(textwrap.dedent(source)))


def test_average_meter_takes_the_value_in_update_and_holds_it_in_its_sums() -> None:
    assert _meters(AVERAGE_METER) == {"AverageMeter": (("update",), ("avg", "sum", "val"))}


def test_an_f_string_field_with_a_format_spec_is_a_safe_read() -> None:
    source = AVERAGE_METER.replace(
        "return fmtstr.format(**self.__dict__)",
        'return f"{self.avg:.3f}"',
    )
    assert "AverageMeter" in _meters(source)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the average decides a branch
        (
            "    def __str__(self):",
            "    def worse(self, best):\n        return self.avg > best\n\n    def __str__(self):",
        ),
        # the value itself updated in place: `+=` on the loss tensor
        ("        self.val = val\n", "        self.val = val\n        self.val += 0\n"),
        # a method call on the value (kept in a list)
        ("        self.val = val\n", "        self.val = val\n        self.history.append(val)\n"),
        # the instance's fields dumped other than by `.format`
        ("        return fmtstr", "        json.dumps(self.__dict__)\n        return fmtstr"),
        # a field converted with !r: `repr(tensor)` is not the number
        ('"{name} {val"', '"{name} {val!r} {val"'),
        # a sum started as a tensor: a device tensor's `+=` would meet a CPU tensor
        ("        self.sum = 0\n", "        self.sum = torch.zeros(())\n"),
        # the instance handed on: the callee may read anything
        ("        total = torch", "        log(self)\n        total = torch"),
    ],
    ids=["compared", "in-place", "appended", "dumped", "repr", "tensor-start", "handed-on"],
)
def test_a_class_that_may_use_the_value_as_more_than_a_number_is_not_a_meter(
    old: str, new: str
) -> None:
    assert old in AVERAGE_METER
    assert _meters(AVERAGE_METER.replace(old, new)) == {}
