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
