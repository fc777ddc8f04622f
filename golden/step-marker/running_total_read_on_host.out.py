# Twin of running_total_after_step: the sum after the optimizer step reads the loss on the
# host (`loss.item()`, which item-hoist reports or rewrites): moving the marker past it gains
# nothing (the read runs the graph anyway), so the marker stays right after the step.
import torch
import torch_xla


def train(model, criterion, optimizer, batches, log_interval):
    total_loss = 0.0
    for batch, (data, targets) in enumerate(batches):
        data, targets = data.to("xla"), targets.to("xla")
        optimizer.zero_grad()
        loss = criterion(model(data), targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        optimizer.step()
        torch_xla.sync()

        total_loss += loss.item()

        if batch % log_interval == 0 and batch > 0:
            cur_loss = total_loss / log_interval
            print(f"| {batch:5d} batches | loss {cur_loss:5.2f}")
            total_loss = 0
