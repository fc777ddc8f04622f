# Class: an availability check in the test of a conditional expression whose other side is a
# CUDA device index (`f"cuda:{rank}" if torch.cuda.is_available() and ... else "cpu"`). Made
# true, it would choose `cuda:N` unconditionally, which this run does not rewrite: the original
# fell back to the CPU, the port would raise. Left as it is (TRN047), a blocker.
from dataclasses import dataclass

import torch
import tyro


@dataclass
class Args:
    cuda: bool = True
    gpu: int = 0


args = tyro.cli(Args)
device = torch.device(f"cuda:{args.gpu}" if torch.cuda.is_available() and args.cuda else "cpu")
model = torch.nn.Linear(4, 2).to(device)
