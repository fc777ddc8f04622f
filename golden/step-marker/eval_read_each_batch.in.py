# Class: evaluation loops that read a value on the host every batch. The read runs the graph;
# a cut after it (at the end of the body, or an MpDeviceLoader's when the next batch is taken)
# runs the forward pass a second time for what is still alive (`out`): 2 executions a batch
# against 1 (benchmarks/step_shapes/eval_host_read.py). Where the loop needs a cut (it iterates
# a device loader, or carries a device value), it goes right before the first read: `float(x)`,
# `.cpu()`, `.numpy()`, `.item()`, `.tolist()`, also in an `if` test (a beam search that carries
# its sequences by a tuple assignment reads one there). Two reads of one batch need the cut even
# with nothing carried: each runs its own graph over the shared forward pass (3.0 executions a
# batch with three reads, 2.0 with the cut before the first). Twin:
# eval_read_each_batch_twin (nothing carried, no device loader: no cut at all).
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl


def evaluate_on_device_loader(model, loader, criterion, device):
    total = 0.0
    with torch.no_grad():
        for x, y in pl.MpDeviceLoader(loader, device):
            out = model(x)
            total += float(criterion(out, y))
    return total


def predict_and_count(model, loader, device):
    correct = torch.zeros((), device=device)
    preds = []
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            out = model(x)
            correct += (out.argmax(1) == y).sum()
            preds.append(out.argmax(1).cpu().numpy())
    return correct, np.concatenate(preds)


def evaluate_guarded(model, loader, device):
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            out = model(x)
            total += torch.nn.functional.mse_loss(out, y).detach()
            if out.abs().max().item() > 1e4:
                print("diverged")
    return total


def beam_search(model, enc, seq, scores, eos, beam_size, max_len):
    with torch.no_grad():
        for step in range(2, max_len):
            out = model(seq[:, :step], enc)
            seq, scores = out.topk(beam_size), scores + out.max()
            if (seq == eos).any(1).sum().item() == beam_size:
                break
    return seq, scores


def collect(model, loader, device):
    outputs, features = [], []
    with torch.no_grad():
        for x, _ in loader:
            h = model.features(x.to(device))
            out = model.head(h)
            outputs.append(out.cpu())
            features.append(h.cpu())
    return outputs, features
