# Class: a model on the accelerator that the launch path calls, off the training step, with a
# tensor made on the host and never moved, in another module than the one that wraps it (an
# evaluation over raw samples, `torch.tensor(s)`, that `nn.DataParallel` scattered onto the GPU
# and passes through on the target): the forward raises there (measured on XLA:CPU: "Input type
# (torch.FloatTensor) and weight type (XLAFloatType) should be the same"), so the entry point
# does not run, at that call, though the module that feeds it cannot see the wrapper.
# Twin: evaluation-fed-from-host-twin (the evaluation moves its input).
import torch
import torch_xla
from torch import nn

from evaluation import evaluate


def main():
    model = nn.DataParallel(nn.Linear(4, 2)).to(torch_xla.device())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    device = torch_xla.device()
    for _ in range(3):
        inputs = torch.randn(8, 4).to(device)
        loss = model(inputs).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
    print(evaluate(model, [[0.0, 1.0, 2.0, 3.0]]))


if __name__ == "__main__":
    main()
