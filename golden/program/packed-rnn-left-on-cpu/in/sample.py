import torch
from model import Decoder

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = Decoder(100, 32).to(device)
print(model.sample(torch.zeros(1, 1, dtype=torch.long).to(device)))
