# Twin of meter-imported: the class in utils/meters.py also compares its average (`improved`),
# where a tensor would decide a branch on the host: the read stays and is reported (TRN125).
import torch

from utils.meters import AverageMeter


def main(loader):
    model = torch.nn.Linear(8, 8).to("xla")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = AverageMeter("Loss", ":.4e")
    for step, (x, y) in enumerate(loader):
        x, y = x.to("xla"), y.to("xla")
        loss = torch.nn.functional.mse_loss(model(x), y)
        losses.update(loss.item(), x.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            print(losses)


if __name__ == "__main__":
    main([])
