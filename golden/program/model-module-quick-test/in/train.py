import torch

from models.gpt import GPT


def main(loader):
    model = GPT().cuda()
    optimizer = torch.optim.AdamW(model.parameters())
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main([])
