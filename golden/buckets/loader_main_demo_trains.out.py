# Twin of loader_main_demo_plots: the `__main__` block trains on the loader (a backward and an
# optimizer step each batch), so the training loader keeps drop_last=True.
import torch
from torch.utils import data


class SegmentationLoader(data.Dataset):
    def __len__(self):
        return 10

    def __getitem__(self, index):
        return torch.zeros(3, 8, 8), torch.zeros(8, 8)


if __name__ == "__main__":
    dst = SegmentationLoader()
    model = torch.nn.Conv2d(3, 1, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    trainloader = data.DataLoader(dst, batch_size=4, shuffle=True, num_workers=0, drop_last=True)
    for i, (imgs, labels) in enumerate(trainloader):
        loss = (model(imgs).squeeze(1) - labels).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
