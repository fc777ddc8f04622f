# golden: target=neuron
import torch

model = Net().to("neuron").bfloat16()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
