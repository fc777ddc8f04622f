# Twin of evaluation-fed-from-host: the evaluation moves its input to the model's device, so
# the launch path runs on the accelerator.
import torch
from torch import nn

from evaluation import evaluate


def main():
    model = nn.DataParallel(nn.Linear(4, 2)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        inputs = torch.randn(8, 4).cuda()
        loss = model(inputs).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(evaluate(model, [[0.0, 1.0, 2.0, 3.0]]))


if __name__ == "__main__":
    main()
