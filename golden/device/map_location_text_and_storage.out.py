# Class: a torch.load whose map_location is the training device spelled as text of it
# (`str(device)`, `f"{device}"`) or a function that moves each storage to CUDA
# (`lambda storage, loc: storage.cuda()`). torch.load cannot restore onto the XLA device, and a
# storage has no `.to(device)` (both raise, measured): where all it loads goes into
# load_state_dict it loads to "cpu"; a whole pickled model loaded so is reported (a blocker).
import torch
import torch.nn as nn
import torch_xla

device = torch.device("xla")
model = nn.Linear(4, 2).to(device)
model.load_state_dict(torch.load("model.pt", map_location="cpu"))
head = nn.Linear(2, 2).to(device)
head.load_state_dict(torch.load("head.pt", map_location="cpu"))
encoder = nn.Linear(4, 4).to(device)
encoder.load_state_dict(torch.load("encoder.pt", map_location="cpu"))
checkpoint = torch.load("decoder.pt", map_location=str(device))
decoder = checkpoint["decoder"].to(device)
