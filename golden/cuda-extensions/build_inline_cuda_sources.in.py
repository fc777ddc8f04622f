# Class: an inline CUDA extension built at import (`load_inline(cuda_sources=...)`), and one
# asked to link CUDA (`with_cuda=True`) from C++ sources: each needs the CUDA toolkit, a blocker.
# No device test picks a PyTorch path here, so the message asks for one.
import torch
from torch.utils.cpp_extension import load, load_inline

cuda_source = """
__global__ void add_one(float* x, int n) { int i = threadIdx.x; if (i < n) x[i] += 1; }
"""
cpp_source = "void add_one_launcher(torch::Tensor x);"

ops = load_inline(
    name="add_one",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["add_one_launcher"],
)
linked = load("linked", sources=["linked.cpp"], with_cuda=True)


def add_one(x):
    return ops.add_one_launcher(x)
