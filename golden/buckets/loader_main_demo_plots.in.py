# A dataset module's `__main__` demo: the loader (named like a training one) is iterated only by a
# CPU loop that plots a few batches, and the module trains nothing. No compiled step sees its
# batches, so it gets no drop_last.
import matplotlib.pyplot as plt
import torch
from torch.utils import data


class SegmentationLoader(data.Dataset):
    def __len__(self):
        return 10

    def __getitem__(self, index):
        return torch.zeros(3, 8, 8), torch.zeros(8, 8)


if __name__ == "__main__":
    dst = SegmentationLoader()
    trainloader = data.DataLoader(dst, batch_size=4, num_workers=0)
    for i, (imgs, labels) in enumerate(trainloader):
        plt.imshow(imgs[0].permute(1, 2, 0).numpy())
        plt.show()
        if i == 2:
            break
