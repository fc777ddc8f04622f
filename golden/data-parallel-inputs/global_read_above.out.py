# A function defined above the wrap reads the global DataParallel model (stylegan2's `fid.py`):
# it runs when it is called, after the wrap, so its call of the model is one the plan follows.
import torch
import torch.nn as nn
import torch_xla
from torchvision.models import inception_v3


def features(batches):
    for batch in batches:
        print(inception(torch.zeros(batch, 3, 299, 299).to(torch_xla.device())).shape)


if __name__ == "__main__":
    inception = nn.DataParallel(inception_v3()).cuda()
    features([4, 4])
