import torch
from torch import nn

from .matcher import build_matcher


class SetCriterion(nn.Module):
    def __init__(self, num_boxes):
        super().__init__()
        self.num_boxes = num_boxes

    def forward(self, outputs, targets):
        return {"loss": outputs.sum() / self.num_boxes}


class PostProcess(nn.Module):
    def forward(self, outputs):
        return outputs.softmax(-1).cpu()


def build(args):
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 4))
    criterion = SetCriterion(num_boxes=4)
    return model, criterion, {"bbox": PostProcess(), "matcher": build_matcher(args)}
