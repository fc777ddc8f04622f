# golden: scale-out=true select=TRN16,TRN141
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def main():
    torch.manual_seed(0)
    accelerator = Accelerator()
    data = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(data, batch_size=8, shuffle=True)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for x, y in loader:
        optimizer.zero_grad()
        accelerator.backward(torch.nn.functional.mse_loss(model(x), y))
        optimizer.step()


if __name__ == "__main__":
    main()
