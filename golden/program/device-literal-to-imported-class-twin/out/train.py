# Twin of device-literal-to-imported-class: the class also formats its device into its `repr`,
# a use other than as a device, so the "cuda" handed to it stays for a person.
import torch
import torch_xla

from sampler import Sampler

if __name__ == "__main__":
    model = torch.nn.Linear(4, 1).to("xla")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    sampler = Sampler(4, "cuda")
    for _ in range(10):
        loss = model(sampler.sample(8)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
