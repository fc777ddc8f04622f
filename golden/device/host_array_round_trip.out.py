# Class: a host array's round trip through the device. `nms` takes tensors made from NumPy arrays
# with `.cuda()`, and everything the function does with its result is slice it and read it back
# to the host: on the XLA device that is an upload, a compile for each proposal count and a
# download for the same indices, so the `.cuda()` is dropped, not rewritten.
import numpy as np
import torch
from torchvision.ops import nms


class ProposalCreator:
    def __init__(self, nms_thresh=0.7, n_post_nms=300):
        self.nms_thresh = nms_thresh
        self.n_post_nms = n_post_nms

    def __call__(self, roi, score):
        keep = nms(
            torch.from_numpy(roi),
            torch.from_numpy(score),
            self.nms_thresh)
        if self.n_post_nms > 0:
            keep = keep[:self.n_post_nms]
        return roi[keep.cpu().numpy()]


def top_scores(boxes, scores):
    return nms(torch.from_numpy(boxes), torch.from_numpy(scores), 0.5).cpu().numpy()
