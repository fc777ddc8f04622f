# Twin of build_inline_cuda_sources: C++-only extensions (`.cpp` sources, `cuda_sources=None`)
# compile with the host's C++ compiler and need no CUDA toolkit: nothing is reported.
import torch
from torch.utils.cpp_extension import load, load_inline

lltm = load("lltm_cpp", sources=["lltm.cpp"], extra_cflags=["-O3"])
inline = load_inline(
    name="inline_cpp",
    cpp_sources="torch::Tensor twice(torch::Tensor x) { return x * 2; }",
    cuda_sources=None,
    functions=["twice"],
)


def step(x):
    return lltm.forward(inline.twice(x))
