# Must not fire: the decode of element_index after one copy of the indices to the host
# (`.cpu()` or `.tolist()` before the loops), a loop over a host list, and an element of a
# device tensor that indexes another device tensor (no read). The case that fires is
# element_index.
import torch

vocab = ["<blank>", "a", "b", "c"]


def evaluate(model, loader, device):
    texts = []
    model.eval()
    with torch.no_grad():
        for images, labels in loader:
            logits = model(images.to(device))
            preds = logits.argmax(-1).cpu()
            for k in range(preds.size(0)):
                texts.append("".join(vocab[preds[k, i]] for i in range(preds.size(1))))
            rows = logits.argmax(-1).tolist()
            for row in rows:
                texts.append("".join([vocab[i] for i in row]))
            for label in labels:
                texts.append(vocab[label])
            best = logits.argmax(-1)
            scores = [logits[k][best[k]] for k in range(best.size(0))]
            texts.append(str(len(scores)))
    return texts
