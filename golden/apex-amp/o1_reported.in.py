import torch
from apex import amp

model, optimizer = amp.initialize(model, optimizer, opt_level="O1")
for batch, target in loader:
    loss = torch.nn.functional.cross_entropy(model(batch), target)
    with amp.scale_loss(loss, optimizer) as scaled_loss:
        scaled_loss.backward()
    optimizer.step()
