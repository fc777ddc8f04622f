import torch
import torch_xla

DEVICE = "xla"
model = torch.nn.Linear(2, 2).to(DEVICE)
if DEVICE == "xla":
    torch.backends.cudnn.benchmark = True
print(f"training on {DEVICE}")

TARGET = "xla"
batch = torch.zeros(2).to(TARGET)
