import torch


def setup(local_rank: int, rank: int):
    model = torch.nn.Linear(2, 2).cuda(local_rank)
    other = torch.zeros(2, device="cuda:1")
    third = torch.zeros(2).to(f"cuda:{rank}")
    fourth = torch.device("cuda", local_rank)
    return model, other, third, fourth
