# Twin of to_tensor_unpacked_from_call: a name that says it is a device, unpacked from a call
# the tool cannot follow, still decides where the model trains and is reported.
import torch


def setup():
    return torch.nn.Linear(4, 2), "cuda"


model, device = setup()
model = model.to(device)
