import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
name = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(4, 2).to(name)
