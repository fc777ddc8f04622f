# golden: target=neuron
import torch

device = torch.device("neuron")
model = torch.nn.Linear(4, 4).to(torch.device("neuron"))
x = torch.zeros(4, device="neuron")
