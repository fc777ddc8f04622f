import torch

device = torch.device("cuda")
model = torch.nn.Linear(4, 4).to(device)
batch = torch.zeros(2, 4).to(device)
