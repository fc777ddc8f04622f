"""The loop finder's own dispatch: it calls only the hooks it lists, so the list must be whole."""

from trncodemod.analysis.loops import _LoopCollector


def test_every_visit_hook_of_the_loop_finder_is_dispatched() -> None:
    own = vars(_LoopCollector)
    hooks = {name.removeprefix("visit_") for name in own if name.startswith("visit_")}
    assert hooks == {kind.__name__ for kind in _LoopCollector._HOOKED}
    assert not [name for name in own if name.startswith("leave_")], "on_leave calls no hooks"
