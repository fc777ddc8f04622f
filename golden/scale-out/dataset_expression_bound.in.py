# golden: scale-out=true select=TRN16,TRN141
# Class: the training loader's dataset is written in its call, a subscript or a call
# (`DataLoader(ds["train"], ...)`, `DataLoader(TensorDataset(x, y), ...)`): bound to a name before
# the loader, evaluated once, so the DistributedSampler and the loader share one dataset.
import torch
from torch.utils.data import DataLoader, TensorDataset


def main():
    torch.manual_seed(0)
    splits = {"train": TensorDataset(torch.randn(64, 4), torch.randn(64, 1))}
    train_loader = DataLoader(splits["train"], shuffle=True, batch_size=8)
    eval_loader = DataLoader(TensorDataset(torch.randn(16, 4), torch.randn(16, 1)), batch_size=8)
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        for x, y in train_loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
    with torch.no_grad():
        for x, y in eval_loader:
            print(torch.nn.functional.mse_loss(model(x), y))


if __name__ == "__main__":
    main()
