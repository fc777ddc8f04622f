"""The CPU/MPS fallback an availability check guards: kept where the branch it would leave
still names a CUDA device (TRN021).

Making `torch.cuda.is_available()` true drops the `else`/`elif` it guards. Where the branch kept
sets a device the tool cannot rewrite (`torch.device('cuda:{}'.format(args.gpu))`, pytorch/examples
`legacy/snli/train.py`), dropping the fallback would leave a CUDA device on a host that has none:
the check, its branch and its fallback stay as they are, and the finding says where to put the
target's device.
"""

from __future__ import annotations

import libcst as cst

from trncodemod.analysis.nodes import find


def cuda_device_left(node: cst.CSTNode) -> cst.BaseExpression | None:
    """A string in ``node`` that names a CUDA device (`"cuda"`, `'cuda:{}'`, `f"cuda:{i}"`), if
    one is left in it."""
    for string in find(node, cst.SimpleString):
        value = string.evaluated_value  # type: ignore[attr-defined]
        if isinstance(value, str) and value.startswith("cuda"):
            return string  # type: ignore[return-value]
    for formatted in find(node, cst.FormattedString):
        parts = formatted.parts  # type: ignore[attr-defined]
        head = parts[0] if parts else None
        if isinstance(head, cst.FormattedStringText) and head.value.startswith("cuda"):
            return formatted  # type: ignore[return-value]
    return None
