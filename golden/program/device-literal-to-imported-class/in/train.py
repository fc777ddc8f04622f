# Class: a "cuda" literal handed straight to a class of another module (`Sampler(4, "cuda")`)
# that keeps it in `self.device` and reads that only as a device: the training device, rewritten
# (TRN002). Twin (device-literal-to-imported-class-twin): the class also names the device in its
# `repr`, so the literal stays.
import torch

from sampler import Sampler

if __name__ == "__main__":
    model = torch.nn.Linear(4, 1).to("cuda")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    sampler = Sampler(4, "cuda")
    for _ in range(10):
        loss = model(sampler.sample(8)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
