# Twin: a helper whose "cuda" is only printed, and a "cuda" handed to a function that logs it:
# text, not a device, so each stays.
import torch


def backend_name():
    return "cuda"


def log_run(model, backend):
    print(f"training {type(model).__name__} on {backend}")


def main(loader):
    print("backend:", backend_name())
    model = torch.nn.Linear(8, 2).cuda()
    log_run(model, "cuda")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main([])
