import torch
from torch.optim import AdamW as W

model = torch.nn.Linear(4, 4).to(torch.bfloat16)
# optimizer = "keep" (the default): syncfree with found_inf=None is the stock step ([xla-syncfree]).
opt = W(model.parameters(), lr=1e-3)
sgd = torch.optim.SGD(model.parameters(), lr=0.1)
