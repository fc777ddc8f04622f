# golden: scale-out=true select=TRN16,TRN141
# Must not fire (twin of model_chain_broadcast): the chain that moves the model comes after the
# optimizer is built from another model's parameters, so no broadcast point is certain; the
# script is not scaled out and the finding says to seed.
import torch
import torch_xla
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch_xla.device()
    data = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
    loader = DataLoader(data, batch_size=8, shuffle=True)
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model = torch.nn.Linear(4, 1).to(device)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x.to(device)), y.to(device)).backward()
        optimizer.step()


if __name__ == "__main__":
    main()
