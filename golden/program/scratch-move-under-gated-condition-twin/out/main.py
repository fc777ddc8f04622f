# Twin: the condition gates the move of the step's inputs themselves (`if self.use_gpu: obs =
# obs.cuda()`, off by default, and nothing else moves them): no move of the inputs runs on
# Trainium, and the blocker at the condition stays.
import torch
import torch_xla

from agent.trainer import Trainer

device = torch.device("xla")
model = torch.nn.Linear(4, 1).to(device)
trainer = Trainer(model)
for step in range(10):
    obs = torch.randn(8, 4)
    returns = torch.randn(8, 1)
    trainer.update(obs, returns)
