import random

import torch
import torch_xla


def setup(args):
    torch.manual_seed(args.seed)
    torch_xla.manual_seed(args.seed)
    torch.random.manual_seed(0)
    torch_xla.manual_seed(0)
    g = torch.manual_seed(args.seed + args.rank)
    torch_xla.manual_seed(args.seed + args.rank)
    random.seed(1); torch.manual_seed(int(args.seed)); torch_xla.manual_seed(int(args.seed))
    torch.manual_seed(random.randint(0, 1000))
    torch.manual_seed(seed=1234)
    torch_xla.manual_seed(1234)
    return torch.nn.Linear(2, 2).to(args.device)
