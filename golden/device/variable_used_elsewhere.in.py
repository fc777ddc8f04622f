import torch

DEVICE = "cuda"
model = torch.nn.Linear(2, 2).to(DEVICE)
if DEVICE == "cuda":
    torch.backends.cudnn.benchmark = True
print(f"training on {DEVICE}")

TARGET = "cuda"
batch = torch.zeros(2).to(TARGET)
