"""The optimizer mapping table (data/optimizers.toml) is consistent with itself."""

from __future__ import annotations

import ast

import pytest
from trncodemod.transforms.optimizer_table import load_table

TABLE = load_table()
SOURCES = [*TABLE.sources, TABLE.fp32_states]


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: f"{s.module}.{s.classes[0]}")
def test_every_source_maps_to_a_known_class(source) -> None:
    targets = {source.target, *(v for k, v in source.switch.items() if k != "keyword")}
    assert targets <= TABLE.classes.keys()


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: f"{s.module}.{s.classes[0]}")
def test_every_keyword_the_table_names_is_in_the_source_signature(source) -> None:
    named = {*source.defaults, *source.drop, *source.notes}
    if source.switch:
        named.add(source.switch["keyword"])
    assert named <= set(source.signature)


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: f"{s.module}.{s.classes[0]}")
def test_every_value_in_the_table_is_a_python_literal(source) -> None:
    for text in source.defaults.values():
        ast.literal_eval(text)
    for values in source.drop.values():
        for text in values:
            if text != "*":
                ast.literal_eval(text)


def test_a_class_is_either_mapped_or_unsupported_never_both() -> None:
    mapped = {(s.module, c) for s in TABLE.sources for c in s.classes}
    unsupported = {(module, c) for module, classes, _ in TABLE.unsupported for c in classes}
    assert not mapped & unsupported
