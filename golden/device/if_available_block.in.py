import torch

# Only the branch taken on the accelerator stays.
if torch.cuda.is_available():
    device = torch.device("cuda")
else:
    device = torch.device("cpu")
model = torch.nn.Linear(4, 4).to(device)
model(torch.zeros(2, 4, device=device)).sum().backward()
