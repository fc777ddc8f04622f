# A slice at a name bound to the loop's offset (`start_ind = batch`, locuslab/TCN copy_memory),
# or at a name the loop adds to (`i += seq_len`, salesforce/awd-lstm-lm's `while`): the same
# graph per offset as `x[batch:...]` (TRN434). A length that shrinks at the end of the source
# (`seq_len = min(...)`) is no offset: `x[:seq_len]` starts at 0.
import torch

device = torch.device("xla")
train_x = torch.randint(0, 9, (1024, 30)).to(device)


def train(model, optimizer, n_train, batch_size):
    for batch_idx, batch in enumerate(range(0, n_train, batch_size)):
        start_ind = batch
        end_ind = start_ind + batch_size
        seq_len = min(batch_size, n_train - batch)
        x = train_x[start_ind:end_ind]
        head = train_x[:seq_len]
        loss = model(x, head).sum()
        loss.backward()
        optimizer.step()


def train_variable_bptt(model, optimizer, bptt):
    i = 0
    while i < train_data_size() - 1:
        seq_len = max(5, bptt - i % 3)
        x = train_x[i : i + seq_len]
        loss = model(x).sum()
        loss.backward()
        optimizer.step()
        i += seq_len


def train_data_size():
    return train_x.size(0)
