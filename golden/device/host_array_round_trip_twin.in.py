# Twin of host_array_round_trip: the result stays on the device (it indexes a device tensor, or
# is returned), or an input is a device tensor: each `.cuda()` is rewritten as usual.
import torch
from torchvision.ops import nms


def keep_on_device(roi, score, features):
    keep = nms(torch.from_numpy(roi).cuda(), torch.from_numpy(score).cuda(), 0.7)
    return features[keep]


def returned(roi, score):
    keep = nms(torch.from_numpy(roi).cuda(), torch.from_numpy(score).cuda(), 0.7)
    return keep


def mixed(boxes, score):
    keep = nms(boxes, torch.from_numpy(score).cuda(), 0.7)
    return keep.cpu().numpy()
