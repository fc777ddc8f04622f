# Class: the step in a function called once per iteration of a loop (a full-batch
# `def train(epoch): ... optimizer.step()` called from `for epoch in ...: train(epoch)` at module
# level or in `main()`). Nothing cut it: the parameters stayed pending and the graph grew by one
# call each iteration (8 epochs of a dense GCN stand-in: 25 compiles and 181 s, against 4 and
# 9.7 s with a cut; benchmarks/step_shapes/step_function_per_epoch.py). The cut goes in the
# function, after its optimizer step. Twin:
# step_function_called_from_loop_twin.
import torch
import torch.nn.functional as F
import torch_xla

device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
features = torch.randn(100, 16).to(device)
labels = torch.randint(0, 4, (100,)).to(device)


def train(epoch):
    model.train()
    optimizer.zero_grad()
    output = model(features)
    loss_train = F.cross_entropy(output, labels)
    loss_train.backward()
    optimizer.step()
    torch_xla.sync()

    model.eval()
    loss_val = F.cross_entropy(model(features), labels)
    print(epoch, loss_train.item(), loss_val.item())


def fine_tune(step):
    optimizer.zero_grad()
    F.cross_entropy(model(features), labels).backward()
    optimizer.step()
    torch_xla.sync()


def main():
    for step in range(10):
        fine_tune(step)


for epoch in range(200):
    train(epoch)
main()
