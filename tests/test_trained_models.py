"""Which names hold a model the file's training loops train (analysis/trained_models.py)."""

import libcst as cst

from trncodemod.analysis.loops import find_step_loops
from trncodemod.analysis.nodes import find
from trncodemod.analysis.trained_models import TrainedModels

TRAIN = """
def train(net, loader, optimizer):
    for x, y in loader:
        optimizer.zero_grad()
        net(x).sum().backward()
        optimizer.step()
"""


def _models(code: str) -> tuple[cst.Module, TrainedModels]:
    module = cst.parse_module(code)
    parents = {child: node for node in find(module, cst.CSTNode) for child in node.children}
    return module, TrainedModels(module, list(find_step_loops(module).values()), parents)


def _function(module: cst.Module, name: str) -> cst.FunctionDef:
    return next(f for f in find(module, cst.FunctionDef) if f.name.value == name)


def test_a_model_returned_by_a_helper_and_handed_to_the_trainer_is_trained() -> None:
    module, models = _models(
        TRAIN
        + """
def build(cfg):
    g, d = G(), D()
    return g, d

def main(cfg):
    g, d = build(cfg)
    train(g, cfg.loader, opt)
"""
    )
    assert models.trained(_function(module, "build"), "g")
    assert not models.trained(_function(module, "build"), "d")


def test_a_model_only_evaluated_is_not_trained() -> None:
    module, models = _models(
        TRAIN
        + """
def evaluate(model, loader):
    with torch.no_grad():
        for x, y in loader:
            print(model(x.to("xla")).sum())

def main(model):
    evaluate(model, loader)
"""
    )
    assert not models.trained(_function(module, "main"), "model")


def test_calls_that_recurse_end() -> None:
    module, models = _models(
        """
def a(m):
    return b(m)

def b(m):
    return a(m)
"""
    )
    assert not models.trained(_function(module, "a"), "m")


def test_a_model_handed_to_a_function_the_training_loop_calls_is_trained() -> None:
    module, models = _models(
        """
def forward_loss(model, x, y):
    return loss_fn(model(x), y)

def fit(model, loader, optimizer):
    for x, y in loader:
        forward_loss(model, x, y).backward()
        optimizer.step()
"""
    )
    assert models.trained(_function(module, "fit"), "model")
