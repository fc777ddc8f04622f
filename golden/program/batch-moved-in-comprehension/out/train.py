# Class: tensors moved to the device inside a comprehension or a generator and unpacked
# (`inputs, targets = (b.to(device) for b in batch)`), and a list built by `append` of moved
# tensors in a helper, returned and iterated: each item is where the comprehension or the
# appended value put it, so the step's inputs are decided and the verdict is "runs". Twin
# (batch-moved-in-comprehension-twin): the helper appends tensors it never moves, so the
# model is called on a CPU tensor: "does not" at that call.
import torch
import torch_xla


def fixed_inputs(base, device, count):
    inputs = []
    for i in range(count):
        inputs.append((base + i).to(device))
    return inputs


if __name__ == "__main__":
    device = torch_xla.device()
    model = torch.nn.Linear(4, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.utils.data.TensorDataset(torch.randn(32, 4), torch.randn(32, 2))
    loader = torch.utils.data.DataLoader(data, batch_size=8, drop_last=True)
    fixed = fixed_inputs(torch.zeros(8, 4), device, 3)
    for batch in loader:
        inputs, targets = (b.to(device) for b in batch)
        loss = ((model(inputs) - targets) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        with torch.no_grad():
            samples = [model(x) for x in fixed]
