# aws-neuron-samples mnist_mlp train_cpu.py shape: a CPU script that trains; Neuron's own port
# (train.py) changes the device to 'xla'. Runs as it is (random data), for the XLA lane.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla
from torch.utils.data import DataLoader, TensorDataset


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 120)
        self.fc2 = nn.Linear(120, 10)

    def forward(self, x):
        return F.log_softmax(self.fc2(F.relu(self.fc1(x))), dim=1)


def main():
    loader = DataLoader(
        TensorDataset(torch.randn(640, 784), torch.randint(0, 10, (640,))),
        batch_size=32,
        drop_last=True,
    )
    device = "xla"
    model = MLP().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = torch.nn.NLLLoss()
    model.train()
    for train_x, train_label in loader:
        optimizer.zero_grad()
        train_x = train_x.to(device)
        train_label = train_label.to(device)
        loss = loss_fn(model(train_x), train_label)
        loss.backward()
        optimizer.step()
    print("Final loss is {:0.4f}".format(loss.detach().to("cpu")))


if __name__ == "__main__":
    main()
