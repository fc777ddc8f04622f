# Class: boolean-mask indexing of a value a helper of the program has already turned into a NumPy
# array (`at.tonumpy(x)`, `to_numpy(x)`): NumPy indexes it on the host, nothing lowers to
# `nonzero`, so nothing is reported. The last line, which indexes the device tensor itself, is.
import torch.nn as nn
import torch.nn.functional as F

from utils import array_tool as at


def to_numpy(x):
    return x.detach().cpu().numpy()


class RPNLoss(nn.Module):
    def forward(self, rpn_score, gt_rpn_label):
        loss = F.cross_entropy(rpn_score, gt_rpn_label, ignore_index=-1)
        kept = at.tonumpy(rpn_score)[at.tonumpy(gt_rpn_label) > -1]
        also = to_numpy(rpn_score)[to_numpy(gt_rpn_label) > -1]
        return loss + rpn_score[gt_rpn_label > -1].sum(), kept, also
