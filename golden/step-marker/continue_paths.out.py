import torch
import torch_xla


def train(model, loader, optimizer, device, skip):
    for step, batch in enumerate(loader):
        if batch is None:
            # an empty shard: nothing to train on
            continue
        if step in skip: continue
        inputs = batch["input_ids"].to(device)
        for sub in inputs.split(8):
            if sub.numel() == 0:
                continue  # belongs to the inner loop
        for name in batch:
            if name == "labels":
                break
        else:
            torch_xla.sync()
            continue  # for-else: skips the rest of this iteration
        loss = model(inputs).loss
        try:
            loss.backward()
            optimizer.step()
        except RuntimeError:
            optimizer.zero_grad()
            torch_xla.sync()
            continue
        torch_xla.sync()
        optimizer.zero_grad()
        if step % 10:
            continue  # after the step: the marker has already run
        print(step, loss.item())
