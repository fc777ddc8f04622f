# Class: a CTC loss in a script that trains, built outside the step (`nn.CTCLoss` in `main()`,
# called in the step as `criterion`) or called in it (`F.ctc_loss`, `torch.ctc_loss`): torch-xla
# runs `aten::_ctc_loss` and its backward on the CPU in every step (TRN446), once per call.
# Not reported here: a CTC loss of log-probabilities already on the host (`.cpu()`), and another
# library's `CTCLoss` (warp-ctc). The twin (ctc_loss_in_evaluation_script) trains nothing.
import torch
import torch.nn.functional as F
from torch import nn
from warpctc_pytorch import CTCLoss


def train(model, loader, optimizer, criterion):
    for images, targets, frames, lengths in loader:
        log_probs = model(images).log_softmax(2).permute(1, 0, 2)
        loss = criterion(log_probs, targets, frames, lengths)
        loss = loss + 0.1 * F.ctc_loss(log_probs, targets, frames, lengths, zero_infinity=True)
        loss = loss + torch.ctc_loss(log_probs, targets, frames, lengths)
        host = F.ctc_loss(log_probs.cpu(), targets.cpu(), frames, lengths)
        optimizer.zero_grad()
        (loss + host.to(loss.device)).backward()
        optimizer.step()


def main(baidu=False):
    model = nn.Sequential(nn.Flatten(2), nn.Linear(32, 10))
    optimizer = torch.optim.Adam(model.parameters())
    criterion = CTCLoss() if baidu else nn.CTCLoss(zero_infinity=True)
    loader = []
    train(model, loader, optimizer, criterion)


if __name__ == "__main__":
    main()
