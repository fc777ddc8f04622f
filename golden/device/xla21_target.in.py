# golden: target=xla-2.1
import torch

model = torch.nn.Linear(4, 4).cuda()
device = torch.device("cuda")
