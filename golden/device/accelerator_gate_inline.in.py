import torch

device = (
    torch.accelerator.current_accelerator() if torch.accelerator.is_available() else torch.device("cpu")
)
model = torch.nn.Linear(4, 4).to(device)
model(torch.zeros(2, 4, device=device)).sum().backward()
