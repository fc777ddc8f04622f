# golden: target=neuron
import torch

model = Net().to("neuron").half()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
