# A Lightning 1.x program that trains on the CPU, whose module needs a rewrite on the target's
# torch wherever it trains (`torch._six` is gone in torch 2): the module keeps every rewrite,
# since it is left as given whole or not at all.
import pytorch_lightning as pl
import torch
from torch._six import inf

from model import Net, dataset

torch.manual_seed(0)
train_dl = torch.utils.data.DataLoader(dataset(), batch_size=8, shuffle=True, pin_memory=True)

if __name__ == "__main__":
    net = Net()
    trainer = pl.Trainer(gpus=0, max_epochs=10, gradient_clip_val=inf)
    trainer.fit(net, train_dl)
