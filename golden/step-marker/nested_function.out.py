import torch
import torch_xla


def fit(model, loader, optimizer, epochs, device):
    for epoch in range(epochs):

        def train_one_epoch():
            for x, y in loader:
                loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
                loss.backward()
                optimizer.step()
                torch_xla.sync()
                optimizer.zero_grad()

        train_one_epoch()
        print("epoch", epoch)


def fit_lbfgs(model, loader, device):
    optimizer = torch.optim.LBFGS(model.parameters())
    for x, y in loader:
        x, y = x.to(device), y.to(device)

        def closure():
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            return loss

        optimizer.step(closure)
        torch_xla.sync()
