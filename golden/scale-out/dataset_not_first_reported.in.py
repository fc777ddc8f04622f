# golden: scale-out=true select=TRN16,TRN141
# Must not fire (twin of dataset_expression_bound): the dataset is a call written after another
# argument that is a call too; bound before the loader, `make_dataset()` would run before
# `next_batch_size()`, so the loader is not rewritten and the finding says why.
import torch
from torch.utils.data import DataLoader, TensorDataset

SIZES = iter([8, 16])


def next_batch_size():
    return next(SIZES)


def make_dataset():
    return TensorDataset(torch.randn(64, 4), torch.randn(64, 1))


def main():
    torch.manual_seed(0)
    loader = DataLoader(batch_size=next_batch_size(), dataset=make_dataset(), shuffle=True)
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()


if __name__ == "__main__":
    main()
