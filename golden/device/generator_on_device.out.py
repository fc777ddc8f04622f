# Class: a random-number generator made on the training device (a literal "cuda", or the
# device value the script trains on). torch.Generator cannot live on the XLA device (it raises
# `XLA device type not an accelerator`, measured with torch-xla 2.9.0): reported as a blocker,
# and its "cuda" is not rewritten into a generator that raises all the same.
import torch
import torch.nn as nn
import torch_xla

device = torch_xla.device()
model = nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
noise_generator = torch.Generator(device=device)
noise_generator.manual_seed(0)
shuffle_generator = torch.Generator("cuda")

for step in range(100):
    x = torch.randn(8, 16, generator=noise_generator, device=device)
    loss = model(x).pow(2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
