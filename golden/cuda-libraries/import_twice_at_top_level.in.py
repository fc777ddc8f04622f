# Class: two imports of one library that needs CUDA when the module is imported (apex's amp and
# its DDP): the first raises, so it alone is reported, a blocker; another library's import is
# its own.
import torch
from apex import amp
from apex.parallel import DistributedDataParallel
import bitsandbytes as bnb

model = DistributedDataParallel(torch.nn.Linear(4, 4))
optimizer = bnb.optim.Adam8bit(model.parameters())
model, optimizer = amp.initialize(model, optimizer, opt_level="O1")
