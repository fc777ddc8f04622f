import torch
import torch_xla
from torch.utils.data import DataLoader

WARMUP_STEPS = 2


def main(train_dataset):
    device = "xla"
    model = torch.nn.Linear(784, 10).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = torch.nn.NLLLoss()
    train_loader = DataLoader(train_dataset, batch_size=32)

    for epoch in range(4):
        print("Epoch", epoch)
        for idx, (train_x, train_label) in enumerate(train_loader):
            optimizer.zero_grad()
            train_x = train_x.view(train_x.size(0), -1)
            train_x = train_x.to(device)
            train_label = train_label.to(device)
            output = model(train_x)
            loss = loss_fn(output, train_label)
            loss.backward()
            optimizer.step()
            torch_xla.sync()
            if idx < WARMUP_STEPS:  # skip warmup iterations
                continue

    print("Final loss is {:0.4f}".format(loss.detach().to("cpu")))
