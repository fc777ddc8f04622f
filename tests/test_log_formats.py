"""Which `%` conversions a log string applies to each value: the item-hoist pass keeps a value
read only for a log as a tensor only where the log formats it as a float (`%.4f`), where a 0-d
tensor prints the same text as its `.item()`."""

import pytest
from trncodemod.transforms.item_hoist import _percent_conversions


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[%d/%d][%d/%d] Loss_D: %.4f D(x): %.4f", ["d", "d", "d", "d", "f", "f"]),
        ("%5.2e %-8g %+F %s %r", ["e", "g", "F", "s", "r"]),
        ("100%% done: %.1f%%", ["f"]),
        ("%(loss).4f", None),  # by name: not positional
        ("%*d %.*f", None),  # width or precision taken from the values
        ("no values", []),
    ],
)
def test_percent_conversions(text: str, expected: list[str] | None) -> None:
    assert _percent_conversions(text) == expected
