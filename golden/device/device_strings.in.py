import torch

device = torch.device("cuda")
mask = torch.ones(4, device="cuda")
x = torch.randn(2, 3).to("cuda:0")
y = torch.randn(2, 3).to(device="cuda", dtype=torch.float32)
torch.set_default_device('cuda')
gen = torch.Generator(device="cuda")
