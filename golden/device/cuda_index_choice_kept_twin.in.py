# Class: an availability check choosing a CUDA device index. Twin: the device it chooses is
# "cuda", which the tool rewrites to "xla": the check is made true (TRN021).
from dataclasses import dataclass

import torch
import tyro


@dataclass
class Args:
    cuda: bool = True


args = tyro.cli(Args)
device = torch.device("cuda" if torch.cuda.is_available() and args.cuda else "cpu")
model = torch.nn.Linear(4, 2).to(device)
