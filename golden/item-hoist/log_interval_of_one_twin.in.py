# Twin of log_interval_of_one: an interval of 10, and a name bound to 1 here and to another
# value elsewhere, are real intervals: the guard is left to the item-hoist pass as it is.
import torch

log_interval = 10
eval_every = 1


def train(model, optimizer, data, max_iters, args):
    global eval_every
    if args.quick:
        eval_every = 50
    for iter_num in range(max_iters):
        x, y = data[iter_num]
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if iter_num % log_interval == 0:
            print(f"iter {iter_num}: loss {loss.item():.4f}")
        if iter_num % eval_every == 0:
            print(f"iter {iter_num}: loss {loss.item():.4f}")
