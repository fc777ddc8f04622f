# golden: target=neuron
# Must not fire on TorchNeuron: TRN008 is a torch-xla fact; the device string follows the
# target as any other device use.
import torch
import torch.nn as nn

model = nn.Linear(16, 4).to("neuron")
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
generator = torch.Generator(device="neuron")

for step in range(100):
    x = torch.randn(8, 16, generator=generator, device="neuron")
    loss = model(x).pow(2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
