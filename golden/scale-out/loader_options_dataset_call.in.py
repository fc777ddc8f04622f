# golden: scale-out=true select=TRN16,TRN141
# The loader takes `**options` (a dict literal updated once) and a dataset written as a call:
# both are read, the dataset bound to a name, and the loader sharded.
import torch
from torch.utils.data import DataLoader, TensorDataset


def main():
    torch.manual_seed(0)
    options = {"batch_size": 8}
    options.update({"shuffle": True, "num_workers": 1})
    loader = DataLoader(TensorDataset(torch.randn(64, 4), torch.randn(64, 1)), **options)
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()


if __name__ == "__main__":
    main()
