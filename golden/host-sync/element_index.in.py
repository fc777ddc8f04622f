# Class: an element of a device tensor used as a Python index in a loop inside an evaluation
# step (a greedy decode written in the loop: `vocab[preds[k, i]]`, `for i in row: vocab[i]`):
# one graph execution and host copy per element (TRN447), reported once per loop. The twin
# (element_index_on_host) copies the indices to the host once first.
import torch

vocab = ["<blank>", "a", "b", "c"]


def evaluate(model, loader, device):
    texts = []
    model.eval()
    with torch.no_grad():
        for images, labels in loader:
            logits = model(images.to(device))
            preds = logits.argmax(-1)
            for k in range(preds.size(0)):
                texts.append("".join(vocab[preds[k, i]] for i in range(preds.size(1))))
            for row in preds:
                texts.append("".join([vocab[i] for i in row]))
    return texts
