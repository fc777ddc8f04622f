# A Lightning 1.x Trainer given a GPU does not run on the target either (no CUDA there), but not
# because it trains on the CPU: TRN027 says to use neuronx-distributed's Lightning integration,
# and the XLA rewrites stay for that port.
import pytorch_lightning as pl
import torch

from model import Net, dataset

torch.manual_seed(0)
train_dl = torch.utils.data.DataLoader(dataset(), batch_size=8, shuffle=True, pin_memory=True)

if __name__ == "__main__":
    net = Net()
    trainer = pl.Trainer(gpus=1, max_epochs=10)
    trainer.fit(net, train_dl)
    torch.save(net.state_dict(), "net.pth")
