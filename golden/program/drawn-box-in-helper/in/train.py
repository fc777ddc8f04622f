# A CutMix trainer (clovaai/CutMix-PyTorch's shape) whose box comes from the repository's own
# helper in another module: `rand_bbox` draws `np.random.randint` centres and clips them with
# `np.clip`, the step unpacks the four bounds and pastes the box into the device batch by slice
# assignment (TRN448 across modules).
import numpy as np
import torch
import torch.nn as nn

from utils import rand_bbox

model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.AdaptiveAvgPool2d(1), nn.Flatten())
model = model.cuda()
criterion = nn.CrossEntropyLoss().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(
    [(torch.rand(3, 32, 32), 1)] * 16, batch_size=4, shuffle=True, drop_last=True
)


def train(beta, cutmix_prob):
    for input, target in loader:
        input = input.cuda()
        target = target.cuda()
        r = np.random.rand(1)
        if beta > 0 and r < cutmix_prob:
            lam = np.random.beta(beta, beta)
            rand_index = torch.randperm(input.size()[0]).cuda()
            target_a = target
            target_b = target[rand_index]
            bbx1, bby1, bbx2, bby2 = rand_bbox(input.size(), lam)
            input[:, :, bbx1:bbx2, bby1:bby2] = input[rand_index, :, bbx1:bbx2, bby1:bby2]
            lam = 1 - ((bbx2 - bbx1) * (bby2 - bby1) / (input.size()[-1] * input.size()[-2]))
            output = model(input)
            loss = criterion(output, target_a) * lam + criterion(output, target_b) * (1.0 - lam)
        else:
            output = model(input)
            loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    for epoch in range(2):
        train(1.0, 0.5)
