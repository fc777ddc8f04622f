import torch

from opts import parse_opts


def get_opt():
    opt = parse_opts()
    opt.begin_epoch = 1
    return opt


def main_worker(opt):
    model = torch.nn.Linear(8, 2).to(opt.device)
    optimizer = torch.optim.SGD(model.parameters(), lr=opt.lr)
    for _ in range(opt.epochs):
        inputs = torch.randn(4, 8).to(opt.device)
        loss = model(inputs).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    opt = get_opt()
    opt.device = torch.device("cpu" if opt.no_cuda else "cuda")
    main_worker(opt)
