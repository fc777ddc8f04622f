# Twin of packed-rnn-original-needs-cuda: the model and the batch move to CUDA only under
# `if torch.cuda.is_available():`, so on the target's host the original trains on the CPU;
# ported, it would stop at the recurrent call, so every module it runs is left as it is and
# each rewrite is reported as not applied.
import torch
import torch.nn as nn
from model import Decoder
from torch.nn.utils.rnn import pack_padded_sequence

model = Decoder(100, 32)
if torch.cuda.is_available():
    model = model.cuda()
optimizer = torch.optim.Adam(model.parameters())
criterion = nn.CrossEntropyLoss()

for step in range(100):
    captions = torch.randint(100, (8, 12))
    if torch.cuda.is_available():
        captions = captions.cuda()
    lengths = [12] * 8
    targets = pack_padded_sequence(captions, lengths, batch_first=True)[0]
    loss = criterion(model(captions, lengths), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
