import apex.amp as amp
import torch

model, optimizer = amp.initialize(model, optimizer, opt_level="O2")
for batch, target in loader:
    loss = torch.nn.functional.cross_entropy(model(batch), target)
    with amp.scale_loss(loss, optimizer) as scaled_loss:
        scaled_loss.backward()
    torch.nn.utils.clip_grad_norm_(amp.master_params(optimizer), 1.0)
    optimizer.step()
