"""Twin: `x.data[0]` stored to, indexed further, read with `.item()`, converted, printed,
formatted, handed to a torch function or added to in place (`w.data[0] += 1`): each is as the program means it on any torch, so
nothing is reported."""
import torch


def inspect(weight, scores, probs):
    weight.data[0] = 0.0
    weight.data[0] += 1.0
    row = scores.data[0][1]
    best = scores.data[0].item()
    count = int(probs.data[0])
    print(scores.data[0])
    print("score %.4f" % scores.data[0])
    text = f"{probs.data[0]}"
    clipped = torch.clamp(scores, 0, probs.data[0])
    return row, best, count, text, clipped
