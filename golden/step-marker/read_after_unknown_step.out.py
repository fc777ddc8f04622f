# Class: a training loop whose optimizer steps through methods the tool does not know as a step
# (a sharpness-aware optimizer's `first_step` and `second_step`), and that reads values on the
# host every iteration after its last backward pass, inside `with torch.no_grad():`. The cut
# goes right before the statement that reads, inside the block: a cut at the end of the body
# runs the step's graph again for each read (measured,
# benchmarks/step_shapes/train_host_read.py: 3.0 executions an iteration against 1.0). Twin:
# read_after_unknown_step_twin (the reads only at log steps: the cut stays at the end of the
# body).
import torch
import torch_xla


def train(model, optimizer, loader, log):
    device = torch_xla.device()
    for batch in loader:
        inputs, targets = (b.to(device) for b in batch)
        predictions = model(inputs)
        loss = torch.nn.functional.cross_entropy(predictions, targets)
        loss.backward()
        optimizer.first_step(zero_grad=True)
        torch.nn.functional.cross_entropy(model(inputs), targets).backward()
        optimizer.second_step(zero_grad=True)

        with torch.no_grad():
            correct = torch.argmax(predictions.data, 1) == targets
            torch_xla.sync()
            log(loss.cpu(), correct.cpu())
