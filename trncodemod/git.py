"""How the tool calls git: no value it was given can be read as an option, and no hook runs
unless the user asked for it.

A value a user or a campaign spec gives (a URL, a ref, a branch name) goes after ``--`` or
``--end-of-options`` where git takes them; where it does not (``git switch``'s branch), a value
starting with ``-`` is refused before git sees it, as ``git check-ref-format`` would refuse such
a branch anyway. ``verify --against '--output=FILE'`` made ``git show`` write a file, and a URL
``-u...`` reached ``git clone`` as an option, before this.
"""

from __future__ import annotations

# Every hook of the repository off (``--no-verify`` alone leaves prepare-commit-msg,
# post-commit and post-checkout on): a path no hook can be found under.
WITHOUT_HOOKS = ("-c", "core.hooksPath=/dev/null")


class OptionLike(ValueError):
    """A value that git would read as an option."""


def not_an_option(value: str, what: str) -> str:
    """``value`` itself, unless it starts with ``-``: then OptionLike, naming ``what`` it is."""
    if value.startswith("-"):
        raise OptionLike(f"{what} {value!r} starts with '-', which git would read as an option")
    return value
