# Twin of eval_read_reduced_after_copy: the accuracy is summed on the device
# (`acc += (out.argmax(1) == y).float().mean()`), a value carried from batch to batch, so the
# loop needs its cut every batch.
import torch
import torch_xla

device = torch_xla.device()


def evaluate(model, data_loader):
    model.eval()
    acc = 0
    for batch in data_loader:
        x = batch.text.to(device)
        y = batch.label.to(device)
        out = model(x)
        acc += (out.argmax(1) == y).float().mean()
        torch_xla.sync()
    print(f"Eval accuracy: {acc / len(data_loader)}")


def test(model, test_loader):
    # A loss summed on the device through `.data` beside a count reduced on the host: the sum
    # is carried from batch to batch, so the cut goes before the read.
    test_loss = 0
    correct = 0
    for data, target in test_loader:
        data, target = data.to(device), target.to(device)
        output = model(data)
        test_loss += torch.nn.functional.nll_loss(output, target, reduction="sum").data
        pred = output.data.max(1, keepdim=True)[1]
        torch_xla.sync()
        correct += pred.eq(target.data.view_as(pred)).cpu().sum()
    print(test_loss / len(test_loader.dataset), correct)
