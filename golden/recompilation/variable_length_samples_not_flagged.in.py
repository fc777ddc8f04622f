# Samples taken one by one that have one shape (TRN444 twin): an image dataset indexed one by
# one, the rows of a tensor made in the module, sequences padded in the step, and records
# split into a label and features (`row[1:]`), flattened into one row; a loader's batches
# shifted by one (they are no list of sequences).
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

device = torch.device("xla")
model = nn.Linear(88, 88).to(device)
optimizer = torch.optim.Adam(model.parameters())
test_set = torchvision.datasets.CIFAR10("./data", train=False)
X = torch.randn(100, 50, 88)


def evaluate():
    with torch.no_grad():
        for i in range(len(test_set)):
            img, label = test_set[i]
            output = model(img.unsqueeze(0).to(device))
            print(output.argmax(1).item() == label)


def train_rows():
    for idx in torch.randperm(len(X)).tolist():
        line = X[idx]
        x, y = line[:-1].to(device), line[1:].to(device)
        optimizer.zero_grad()
        F.mse_loss(model(x.unsqueeze(0)).squeeze(0), y).backward()
        optimizer.step()


def train_padded(sequences, width):
    for idx in range(len(sequences)):
        line = F.pad(sequences[idx], (0, 0, 0, width - len(sequences[idx])))
        x, y = line[:-1].to(device), line[1:].to(device)
        optimizer.zero_grad()
        F.mse_loss(model(x.unsqueeze(0)).squeeze(0), y).backward()
        optimizer.step()


def train_records(rows):
    for i in range(len(rows)):
        row = rows[i]
        label, features = row[0], torch.tensor(row[1:]).view(1, -1).to(device)
        optimizer.zero_grad()
        F.cross_entropy(model(features), torch.tensor([label]).to(device)).backward()
        optimizer.step()


def train_loader(dataset):
    loader = torch.utils.data.DataLoader(dataset, batch_size=32)
    for batch in loader:  # batches of one shape, time-major
        x, y = batch[:-1].to(device), batch[1:].to(device)
        optimizer.zero_grad()
        F.mse_loss(model(x), y).backward()
        optimizer.step()
