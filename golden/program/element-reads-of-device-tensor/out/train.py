import torch
import torch_xla

from evaluate import validation
from labels import CTCConverter


def main():
    device = torch_xla.device()
    converter = CTCConverter("abc")
    model = torch.nn.Sequential(torch.nn.Flatten(2), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(100):
        images = torch.randn(8, 24, 4, 8).to(device)
        loss = model(images).logsumexp(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        if step % 50 == 0:
            print(validation(model, converter, [], device))


if __name__ == "__main__":
    main()
