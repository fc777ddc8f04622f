# Class: a map_location spelled as text of the device or as a storage function. Twin: loads the
# XLA device can take already: to the CPU as text, and a function that keeps each storage where
# torch.load restores it (the CPU).
import torch
import torch.nn as nn

model = nn.Linear(4, 2)
model.load_state_dict(torch.load("model.pt", map_location=str("cpu")))
model.load_state_dict(torch.load("model.pt", map_location=lambda storage, loc: storage))
