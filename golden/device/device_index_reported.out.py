import torch
import torch_xla


def setup(local_rank: int, rank: int):
    model = torch.nn.Linear(2, 2).to(torch_xla.device())
    other = torch.zeros(2, device="cuda:1")
    third = torch.zeros(2).to(torch_xla.device())
    fourth = torch_xla.device()
    return model, other, third, fourth
