# pytorch/examples' word_language_model after item-hoist (TRN121): the running loss is summed on
# the device right after the optimizer step and read at log steps. The marker goes after the
# sum, so the sum is part of the step's graph and the read at a log step transfers the value
# instead of running a second graph.
import torch


def train(model, criterion, optimizer, batches, log_interval):
    total_loss = 0.0
    for batch, (data, targets) in enumerate(batches):
        data, targets = data.to("xla"), targets.to("xla")
        optimizer.zero_grad()
        loss = criterion(model(data), targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        optimizer.step()

        total_loss += loss.detach()

        if batch % log_interval == 0 and batch > 0:
            cur_loss = float(total_loss) / log_interval
            print(f"| {batch:5d} batches | loss {cur_loss:5.2f}")
            total_loss = 0
