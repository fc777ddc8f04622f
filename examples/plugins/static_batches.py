"""An example Bowler plugin for trncodemod: every batch of a team's own loader has one shape.

On Trainium each new input shape is a new XLA graph to compile, and a loader's last, shorter
batch is one more. trncodemod's passes see `torch.utils.data.DataLoader`, not the helper a team
builds its loaders with, so this plugin asks that helper, `make_loader(...)`, for
`drop_last=True` at every call that does not already say what it wants (a call that passes
`**options` may, and is left alone):

    trncodemod apply --dry-run --plugin examples/plugins/static_batches.py:query src/
"""

from bowler import Query
from fissix.fixer_util import Comma, KeywordArg, Name
from fissix.pgen2 import token
from fissix.pygram import python_symbols as syms
from fissix.pytree import Node

HELPER = "make_loader"


def passes_drop_last_or_may(argument) -> bool:
    """`drop_last=...` itself, or `**options`, which may hold it."""
    if argument.type != syms.argument:
        return False
    first = argument.children[0]
    return first.type == token.DOUBLESTAR or getattr(first, "value", None) == "drop_last"


def ask_for_whole_batches(node, capture, filename):
    """Append `drop_last=True` to one call of the helper, unless it may pass drop_last already."""
    trailer = capture["function_call"].children[-1]  # `( ... )`
    arguments = trailer.children[1:-1]  # [] or [one argument] or [arglist]
    if arguments and arguments[0].type == syms.arglist:
        arguments = arguments[0].children
    if any(passes_drop_last_or_may(argument) for argument in arguments):
        return node
    keyword = KeywordArg(Name("drop_last"), Name("True"))
    if not arguments:
        trailer.insert_child(1, keyword)
        return node
    keyword.prefix = " "
    if trailer.children[1].type == syms.arglist:
        arglist = trailer.children[1]
        if arglist.children[-1].type != token.COMMA:  # `make_loader(ds,)` has its comma
            arglist.append_child(Comma())
        arglist.append_child(keyword)
    else:
        only = trailer.children[1]
        only.replace(Node(syms.arglist, [only.clone(), Comma(), keyword]))
    return node


def query(path: str) -> Query:
    return Query(path).select_function(HELPER).is_call().modify(ask_for_whole_batches)
