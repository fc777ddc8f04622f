# Must not fire: the CTC criterion of ctc-loss-on-training-path, run only by an evaluation script
# (no training script in the program): the fallback is paid in training steps (TRN446).
import torch.nn as nn
import torch.nn.functional as F


class CTCCriterion(nn.Module):
    def forward(self, logits, targets, frames, lengths):
        log_probs = logits.log_softmax(2).permute(1, 0, 2)
        return F.ctc_loss(log_probs, targets, frames, lengths, zero_infinity=True)
