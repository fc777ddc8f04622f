# Class: dynamic shapes the step makes itself. A function the training loop calls every
# iteration to build its batch (`get_batch`, no DataLoader) draws items and pads them to the
# batch's own longest (`max(len(s) for s in ...)`): nearly every batch has a new length, and XLA
# compiles a graph per length (TRN440: 12 compiles in 20 batches against 2 with buckets,
# benchmarks/step_shapes/loader_shapes.py). Found in a Fabric fine-tune whose XLA port pads to
# the dataset's longest instead. Twin: batch_maker_pads_to_longest_twin.
import torch

micro_batch_size = 4


def get_batch(data, longest_seq_ix=None):
    ix = torch.randint(len(data), (micro_batch_size,))
    input_ids = [data[i]["input_ids"].type(torch.int64) for i in ix]
    labels = [data[i]["labels"].type(torch.int64) for i in ix]
    max_len = max(len(s) for s in input_ids)

    def pad_right(x, pad_id):
        n = max_len - len(x)
        return torch.cat((x, torch.full((n,), pad_id, dtype=x.dtype)))

    x = torch.stack([pad_right(x, pad_id=0) for x in input_ids])
    y = torch.stack([pad_right(x, pad_id=-1) for x in labels])
    return x, y


def train(model, optimizer, train_data, max_iters):
    for iter_num in range(max_iters):
        input_ids, targets = get_batch(train_data)
        logits = model(input_ids)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), targets.flatten(), ignore_index=-1)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
