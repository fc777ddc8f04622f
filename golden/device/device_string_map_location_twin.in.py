# Twin of device_string_map_location: the name is also read as text (a log line), so it stays
# "cuda" and is reported, and map_location is left with it; a map_location of another loader
# than torch.load keeps its device.
import torch


def restore(store, path):
    return store.load(path, map_location=device)


device = "cuda"
print("training on " + device)
model = torch.nn.Linear(4, 2)
checkpoint = torch.load("ckpt.pt", map_location=device)
model.load_state_dict(checkpoint["model"])
model.to(device)
