"""A training script already ported by hand the way Neuron's documentation shows: the string
device 'xla', a marker right after optimizer.step(), and xm.save for the checkpoint. Running the
tool on it must change only what the target requires (xla-2.9: the deprecated xm.mark_step)."""
import os

import torch
import torch_xla
import torch_xla.core.xla_model as xm
from torch.utils.data import DataLoader, TensorDataset


class TinyMLP(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.layers = torch.nn.Sequential(
            torch.nn.Linear(784, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10)
        )

    def forward(self, x):
        return torch.log_softmax(self.layers(x), dim=1)


def run(epochs: int = 2) -> None:
    data = TensorDataset(torch.randn(256, 784), torch.randint(0, 10, (256,)))
    loader = DataLoader(data, batch_size=32, drop_last=True)
    device = "xla"
    model = TinyMLP().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = torch.nn.NLLLoss()
    for epoch in range(epochs):
        for inputs, labels in loader:
            optimizer.zero_grad()
            inputs, labels = inputs.to(device), labels.to(device)
            loss = loss_fn(model(inputs), labels)
            loss.backward()
            optimizer.step()
            torch_xla.sync()
    os.makedirs("checkpoints", exist_ok=True)
    xm.save({"state_dict": model.state_dict()}, "checkpoints/checkpoint.pt")


if __name__ == "__main__":
    run()
