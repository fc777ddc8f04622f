# Class: an evaluation loop that reads a value of the forward pass on the host (`loss.item()`),
# then computes another value from that forward pass after the read and reads it too
# (`num_correct = (pred == label).sum()` from `out`): each read runs a graph over the forward
# pass, 2 executions a batch with no cut, so the cut goes before the first read, which computes
# the forward once. Twin: eval_read_then_fresh_read_twin (the value read second is computed from
# nothing the first read's graph holds: no cut).
import torch
import torch_xla


def evaluate(model, criterion, test_loader, device):
    model.eval()
    eval_loss = 0.0
    eval_acc = 0
    for data in test_loader:
        img, label = data
        img = img.to(device)
        label = label.to(device)
        out = model(img)
        loss = criterion(out, label)
        torch_xla.sync()
        eval_loss += loss.item() * label.size(0)
        _, pred = torch.max(out, 1)
        num_correct = (pred == label).sum()
        eval_acc += num_correct.item()
    return eval_loss, eval_acc
