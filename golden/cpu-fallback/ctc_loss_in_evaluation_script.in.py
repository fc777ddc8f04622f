# Must not fire: the same CTC loss in a script that trains nothing (it loads weights and reports
# the loss under `no_grad`): the fallback is paid in training steps (TRN446), which this script
# has none of. The case that fires is ctc_loss.
import torch
import torch.nn.functional as F
from torch import nn


def evaluate(model, loader, criterion):
    total = 0.0
    with torch.no_grad():
        for images, targets, frames, lengths in loader:
            log_probs = model(images).log_softmax(2).permute(1, 0, 2)
            total += criterion(log_probs, targets, frames, lengths)
            total += F.ctc_loss(log_probs, targets, frames, lengths)
    return total


def main():
    model = nn.Sequential(nn.Flatten(2), nn.Linear(32, 10))
    model.load_state_dict(torch.load("model.pt"))
    model.eval()
    print(evaluate(model, [], nn.CTCLoss(zero_infinity=True)))


if __name__ == "__main__":
    main()
