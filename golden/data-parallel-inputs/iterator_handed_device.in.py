# Class: a DataParallel model fed the elements of a batch from an iterator built with the
# device (`corpus.get_iterator(..., device=device)`, whose class moves its data there in
# `__init__` and yields slices of it). Whether the batches are on the device is the iterator's
# code to say: a warning names the iterator and what to check, not a blocker. Found at first
# sight in a language-model repository (Transformer-XL's `LMOrderedIterator`), where two false
# blockers said the elements stay on the CPU. Twin: iterator_handed_device_twin, whose loader
# is given no device: the elements stay a blocker.
import torch
import torch.nn as nn

from data_utils import get_lm_corpus

device = torch.device("cuda")
corpus = get_lm_corpus("data", "wt103")
tr_iter = corpus.get_iterator("train", 60, 150, device=device, ext_len=0)
model = nn.DataParallel(nn.Linear(150, 150)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train(varlen):
    train_iter = tr_iter.get_varlen_iter() if varlen else tr_iter
    for batch, (data, target, seq_len) in enumerate(train_iter):
        model.zero_grad()
        loss = model(data, target).float().mean()
        loss.backward()
        optimizer.step()
        print(data.size(0), seq_len)
