# A scratch tensor's move nested under a condition that only gates a computation (K-FAC's
# Fisher statistics every k steps): `if values.is_cuda: noise = noise.cuda()` follows where an
# operand lives and decides no device. The model and the batches are moved here, on every run:
# no "no move to the device runs" blocker at the condition.
import torch
import torch_xla

from agent.trainer import Trainer

device = torch.device("xla")
model = torch.nn.Linear(4, 1).to(device)
trainer = Trainer(model)
for step in range(10):
    obs = torch.randn(8, 4).to(device)
    returns = torch.randn(8, 1).to(device)
    trainer.update(obs, returns)
