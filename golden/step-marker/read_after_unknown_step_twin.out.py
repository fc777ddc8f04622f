# Twin of read_after_unknown_step: the values are read only at log steps (under an
# interval `if`): the cut stays at the end of the loop body.
import torch
import torch_xla


def train(model, optimizer, loader, log):
    device = torch_xla.device()
    for step, batch in enumerate(loader):
        inputs, targets = (b.to(device) for b in batch)
        predictions = model(inputs)
        loss = torch.nn.functional.cross_entropy(predictions, targets)
        loss.backward()
        optimizer.first_step(zero_grad=True)
        torch.nn.functional.cross_entropy(model(inputs), targets).backward()
        optimizer.second_step(zero_grad=True)

        with torch.no_grad():
            correct = torch.argmax(predictions.data, 1) == targets
            if step % 50 == 0:
                log(loss.cpu(), correct.cpu())
        torch_xla.sync()
