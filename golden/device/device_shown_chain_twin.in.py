# Twin of device_shown_chain: the device's name is also written into a file name (an f-string
# that is not printed), a read the tool cannot judge, so the "cuda" is reported, not rewritten.
import torch

device = "cpu"
if torch.cuda.is_available():
    device = "cuda"
print(f"using device: {device}")
checkpoint = f"model_{device}.pt"

model = torch.nn.Linear(4, 2).to(device)
torch.save(model.state_dict(), checkpoint)
