# Twin: an import of a library that needs CUDA that only CUDA runs
# (`if torch.cuda.is_available():`). Nothing to report.
import torch

if torch.cuda.is_available():
    import cupy

    def to_cupy(x):
        return cupy.asarray(x)
