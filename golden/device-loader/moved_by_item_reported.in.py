import torch
import torch_xla
from torch.utils.data import DataLoader

device = torch_xla.device()
loader = DataLoader(ds, batch_size=16, drop_last=True)
for step, batch in enumerate(loader):
    batch = [t.to(device) for t in batch]
    input_ids, labels = batch
    model(input_ids, labels=labels).loss.backward()
    optimizer.step()

for batch in loader:
    batch = {k: v.to(device) for k, v in batch.items()}
    model(**batch).loss.backward()
    optimizer.step()

# Items of the batch made into new tensors on the host, not moved: nothing to say.
for batch in loader:
    lengths = [len(t) for t in batch]
    model(batch[0].to(device)).sum().backward()
    optimizer.step()
