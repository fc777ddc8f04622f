# `device = "cuda"` read as a device and as torch.load's map_location: the string becomes "xla" and
# map_location "cpu" (torch.load cannot restore onto "xla"; load_state_dict() copies to the device),
# also in a function defined before the assignment (twin: device_string_map_location_twin).
import torch


def load(model, path):
    model.load_state_dict(torch.load(path, map_location=device))


device = "cuda"
model = torch.nn.Linear(4, 2)
checkpoint = torch.load("ckpt.pt", map_location=device)
model.load_state_dict(checkpoint["model"])
model.to(device)
x = torch.randn(8, 4, device=device)
loss = model(x).sum()
loss.backward()
