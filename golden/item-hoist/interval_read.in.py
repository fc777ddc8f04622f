# golden: select=TRN12,TRN10
# word_language_model (pytorch/examples): the running loss is read into `cur_loss` at log steps
# only, and reset there to the int 0: it is summed on the device and read once an interval.
import math

import torch


def train(model, train_data, criterion, optimizer, log_interval):
    total_loss = 0.
    for batch, (data, targets) in enumerate(train_data):
        data, targets = data.to("xla"), targets.to("xla")
        optimizer.zero_grad()
        loss = criterion(model(data), targets)
        loss.backward()
        optimizer.step()

        total_loss += loss.item()

        if batch % log_interval == 0 and batch > 0:
            cur_loss = total_loss / log_interval
            print('| {:5d} batches | loss {:5.2f} | ppl {:8.2f}'.format(
                batch, cur_loss, math.exp(cur_loss)))
            total_loss = 0
