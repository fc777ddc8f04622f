# Copies to the host inside a training step: `.cpu()`, `.to("cpu")`, `.tolist()`, `.numpy()`.
import torch


def train(model, loader, optimizer, criterion, device):
    predictions, scores, labels_seen = [], [], []
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        logits = model(x)
        loss = criterion(logits, y)
        loss.backward()
        optimizer.step()
        predictions.append(logits.argmax(-1).cpu())
        scores.append(torch.sigmoid(logits).detach().cpu().numpy())
        labels_seen.extend(y.tolist())
        probs = logits.softmax(-1).detach().numpy()
        kept = loss.detach().to("cpu")
        moved = logits.to(device=torch.device("cpu"))
    return predictions, scores, labels_seen, probs, kept, moved
