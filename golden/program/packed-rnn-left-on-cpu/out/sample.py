import torch
import torch_xla
from model import Decoder

device = torch.device("xla")
model = Decoder(100, 32).to(device)
print(model.sample(torch.zeros(1, 1, dtype=torch.long).to(device)))
