# A CTC criterion module (a text recognizer's loss): train.py trains with it, so its
# `F.ctc_loss` runs `aten::_ctc_loss` and its backward on the CPU in every step (TRN446); the
# `nn.CTCLoss` that evaluate.py builds for its own run is not on a training path. The twin has
# the same loss that only the evaluation script runs.
import torch.nn as nn
import torch.nn.functional as F


class CTCCriterion(nn.Module):
    def forward(self, logits, targets, frames, lengths):
        log_probs = logits.log_softmax(2).permute(1, 0, 2)
        return F.ctc_loss(log_probs, targets, frames, lengths, zero_infinity=True)
