# Twin of batch_maker_pads_to_longest: the batch the step makes is padded to one fixed length
# (the dataset's longest, computed once before training), so every batch has the same shape;
# and a function that takes the largest item's length only outside the step (to size the
# model) is not a batch maker. No finding.
import torch

micro_batch_size = 4


def longest_length(data):
    return max(len(d["input_ids"]) for d in data)


def get_batch(data, longest_seq_length):
    ix = torch.randint(len(data), (micro_batch_size,))
    input_ids = [data[i]["input_ids"].type(torch.int64) for i in ix]
    labels = [data[i]["labels"].type(torch.int64) for i in ix]

    def pad_right(x, pad_id):
        n = longest_seq_length - len(x)
        return torch.cat((x, torch.full((n,), pad_id, dtype=x.dtype)))

    x = torch.stack([pad_right(x, pad_id=0) for x in input_ids])
    y = torch.stack([pad_right(x, pad_id=-1) for x in labels])
    return x, y


def train(model, optimizer, train_data, max_iters):
    longest = longest_length(train_data)
    for iter_num in range(max_iters):
        input_ids, targets = get_batch(train_data, longest)
        logits = model(input_ids)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), targets.flatten(), ignore_index=-1)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
