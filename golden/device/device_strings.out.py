import torch
import torch_xla

device = torch.device("xla")
mask = torch.ones(4, device="xla")
x = torch.randn(2, 3).to("xla")
y = torch.randn(2, 3).to(device="xla", dtype=torch.float32)
torch.set_default_device('xla')
gen = torch.Generator(device="cuda")
