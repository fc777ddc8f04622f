# Twin of sampling_stop_test_read: the loop stops on a Python number (`if len(tokens) >= limit`),
# not a tensor's truth, and reads nothing on the host: the cut goes at the end of the body.
import torch
import torch.nn.functional as F
import torch_xla


@torch.no_grad()
def generate(model, start, steps, limit):
    out = start
    tokens = []
    for _ in range(steps):
        logits = model(out)[:, -1]
        sample = torch.multinomial(F.softmax(logits, dim=-1), 1)
        out = torch.cat((out, sample), dim=-1)
        tokens.append(sample)
        if len(tokens) >= limit:
            break
        torch_xla.sync()
    return out
