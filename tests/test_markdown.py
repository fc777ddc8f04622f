"""Text the tool did not write stays text in Markdown: no span closed early, no live image."""

import pytest
from markdown_it import MarkdownIt

from trncodemod.output.markdown import code_span, fence, plain

HOSTILE_NAMES = ["a`![x](http://example.invalid/i.png)`.py", "``b``.py", "`c.py", "d.py`"]


def _html(text: str) -> str:
    return MarkdownIt("commonmark").render(text)


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_file_name_with_backticks_is_one_code_span(name: str) -> None:
    rendered = _html(f"- {code_span(name)} TRN001")
    assert "<img" not in rendered
    assert rendered.count("<code>") == 1


def test_a_fence_is_longer_than_any_backtick_run_inside() -> None:
    body = "```\n<img src=http://example.invalid/x>\n````"
    rendered = _html(fence(body, "diff"))
    assert "<img" not in rendered and rendered.count("<pre>") == 1


def test_plain_text_has_no_markup_left() -> None:
    rendered = _html(plain("<img src=x> ![y](http://example.invalid/y) *a* | `b`\nnext"))
    assert "<img" not in rendered and "<em>" not in rendered and "<code>" not in rendered
