# An evaluation loop whose one host read of a computed value is the predictions; the labels and
# the mask it also reads are batches moved to the device and copied back by reassigning the same
# name (`label_ids = label_ids.to("cpu").numpy()`): no graph for them. The read runs the
# iteration's graph once, so no cut is added.
import torch


def evaluate(model, loader, device):
    y_pred, y_true = [], []
    with torch.no_grad():
        for input_ids, label_ids, mask in loader:
            input_ids = input_ids.to(device)
            label_ids = label_ids.to(device)
            mask = mask.to(device)
            logits = model(input_ids, attention_mask=mask).argmax(-1)
            logits = logits.detach().cpu().numpy()
            label_ids = label_ids.to("cpu").numpy()
            mask = mask.to("cpu").numpy()
            y_pred.append(logits)
            y_true.append(label_ids)
    return y_pred, y_true
