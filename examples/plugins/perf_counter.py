"""An example LibCST plugin for trncodemod: time steps with a monotonic clock.

`time.time()` can jump (NTP, suspend); step timings on a long Trainium run should use
`time.perf_counter()`. Run it with the built-in passes:

    trncodemod apply --dry-run --plugin examples/plugins/perf_counter.py:UsePerfCounter examples/
"""

import libcst as cst
import libcst.matchers as m
from libcst.codemod import VisitorBasedCodemodCommand
from libcst.metadata import QualifiedNameProvider


class UsePerfCounter(VisitorBasedCodemodCommand):
    DESCRIPTION = "time.time() -> time.perf_counter()"
    METADATA_DEPENDENCIES = (QualifiedNameProvider,)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        names = {
            q.name for q in self.get_metadata(QualifiedNameProvider, original_node.func, set())
        }
        if (
            "time.time" in names
            and not original_node.args
            and m.matches(updated_node.func, m.Attribute(value=m.Name(), attr=m.Name("time")))
        ):
            return updated_node.with_changes(
                func=updated_node.func.with_changes(attr=cst.Name("perf_counter"))
            )
        return updated_node
