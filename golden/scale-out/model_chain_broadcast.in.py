# golden: scale-out=true select=TRN16,TRN141
# Class: an unseeded script whose model is built and moved in one chain
# (`model = Net.from_pretrained(...).to(device)`), not by a statement on its name: the master's
# weights are broadcast once the chain has put the model on the device.
import torch
import torch_xla
from torch.utils.data import DataLoader, TensorDataset


class Net(torch.nn.Linear):
    @classmethod
    def from_pretrained(cls, name):
        return cls(4, 1)


def main():
    device = torch_xla.device()
    data = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
    loader = DataLoader(data, batch_size=8, shuffle=True)
    model = Net.from_pretrained("net").to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x.to(device)), y.to(device)).backward()
        optimizer.step()


if __name__ == "__main__":
    main()
