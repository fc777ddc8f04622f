"""Third-party libraries that need CUDA (``data/cuda_libraries.toml``): importing one on a
Trainium host raises, or gives kernels that reject XLA tensors. The CUDA-library pass reports
an import of one (TRN051); the tests of conditions that would turn such code on ask it too
(``analysis.enabled``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

import tomllib


@dataclass(frozen=True)
class CudaLibrary:
    module: str  # the top-level module an import names
    package: str  # what pip calls it
    why: str  # what makes it CUDA-only
    instead: str  # what to use on Trainium
    source: str  # a key of data/sources.toml


@cache
def cuda_libraries() -> dict[str, CudaLibrary]:
    """The table, by top-level module name."""
    text = resources.files("trncodemod").joinpath("data/cuda_libraries.toml").read_text()
    rows = tomllib.loads(text)["libraries"]
    return {row["module"]: CudaLibrary(**row) for row in rows}


def cuda_library(dotted: str) -> CudaLibrary | None:
    """The library a dotted module name (`flash_attn.flash_attn_interface`) belongs to."""
    return cuda_libraries().get(dotted.split(".", 1)[0])
