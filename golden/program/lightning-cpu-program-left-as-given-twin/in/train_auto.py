# Twin of lightning-cpu-program-left-as-given: a Lightning program the evaluator cannot decide
# to the CPU (no device argument and no 1.x keyword: maybe Lightning 2.x, whose
# `accelerator="auto"` probes the machine) keeps its XLA rewrites, and so does the module it
# shares with it (shared.py).
import torch
from pytorch_lightning import Trainer

from model import Net, dataset
from shared import save_state

torch.manual_seed(0)
train_dl = torch.utils.data.DataLoader(dataset(), batch_size=8, shuffle=True, pin_memory=True)

if __name__ == "__main__":
    net = Net()
    trainer = Trainer(max_epochs=10)
    trainer.fit(net, train_dl)
    torch.save(net.state_dict(), "net.pth")
    save_state(net)
