# Class: fixed-count loops over tensors inside the model or loss, and loops in collate functions
# and dataset code, are not batch loops. Sinkhorn-Knopp normalisation and a power iteration run
# inside the step that calls them (`for _ in range(n): Q /= torch.sum(Q, ...)`), a collate
# function and a dataset's `__getitem__` build one batch, a model method that `forward` calls
# runs its encoder n times inside the forward pass: none gets a graph cut, only the training
# loop does. Twin: fixed_count_tensor_loops_twin (a counted loop that takes a batch and calls
# the model each iteration is an evaluation loop and keeps its cut).
import torch


@torch.no_grad()
def sinkhorn(out, n_iters=3, eps=0.05):
    Q = torch.exp(out / eps).t()
    B = Q.shape[1]
    K = Q.shape[0]
    Q /= torch.sum(Q)
    for it in range(n_iters):
        Q /= torch.sum(Q, dim=1, keepdim=True)
        Q /= K
        Q /= torch.sum(Q, dim=0, keepdim=True)
        Q /= B
    return (Q * B).t()


@torch.no_grad()
def spectral_radius(weight, n_iter=10, tol=1e-4):
    u = torch.randn(weight.shape[0], device=weight.device)
    sigma = 0.0
    for _ in range(n_iter):
        v = torch.nn.functional.normalize(weight.t() @ u, dim=0)
        u = torch.nn.functional.normalize(weight @ v, dim=0)
        new = torch.dot(u, weight @ v)
        if abs(new.item() - sigma) < tol:
            break
        sigma = new.item()
    return sigma


def collate_fn(batch):
    images, labels = [], []
    for image, label in batch:
        images.append(image.to("cuda"))
        labels.append(label)
    return torch.stack(images), torch.tensor(labels)


class PairDataset(torch.utils.data.Dataset):
    def __init__(self, tensors, device):
        self.tensors = tensors
        self.device = device

    def __getitem__(self, index):
        out = []
        for t in self.tensors:
            out.append(t[index].to(self.device))
        return tuple(out)

    def __len__(self):
        return len(self.tensors[0])


class Refiner(torch.nn.Module):
    def __init__(self, n_iters):
        super().__init__()
        self.encoder = torch.nn.Linear(8, 8)
        self.n_iters = n_iters

    def refine(self, x):
        for _ in range(self.n_iters):
            x = x + self.encoder(x)
        return x

    def forward(self, x):
        return self.refine(x).sum()


def train(model, loader, optimizer, prototypes):
    device = torch.device("cuda")
    for x, _ in loader:
        x = x.to(device)
        scores = model(x) @ prototypes
        q = sinkhorn(scores)
        loss = -(q * torch.log_softmax(scores, 1)).sum(1).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
