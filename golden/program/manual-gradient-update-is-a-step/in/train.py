# Class: a step with no optimizer and no module: a tensor with `requires_grad=True` is
# differentiated and updated by hand from its gradient (`w.data = w.data - lr * w.grad`). That is
# training; nothing puts `w` or the data on a device, so it trains on the CPU: "does not", at the
# step, not "no step".
import torch

x_data = [1.0, 2.0, 3.0]
y_data = [2.0, 4.0, 6.0]
w = torch.tensor([1.0], requires_grad=True)


def forward(x):
    return x * w


for epoch in range(10):
    for x_val, y_val in zip(x_data, y_data):
        loss = (forward(x_val) - y_val) ** 2
        loss.backward()
        w.data = w.data - 0.01 * w.grad.item()
        w.grad.data.zero_()
