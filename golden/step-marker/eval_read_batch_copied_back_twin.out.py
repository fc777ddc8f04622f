# Twin of eval_read_batch_copied_back: the loop also reads the loss it computed (a second value a
# cut before the first read would compute), so the cut before the first read stays.
import torch
import torch_xla


def evaluate(model, loader, device, loss_fn):
    y_pred, losses = [], []
    with torch.no_grad():
        for input_ids, label_ids in loader:
            input_ids = input_ids.to(device)
            label_ids = label_ids.to(device)
            out = model(input_ids)
            loss = loss_fn(out, label_ids)
            torch_xla.sync()
            logits = out.detach().cpu().numpy()
            label_ids = label_ids.to("cpu").numpy()
            losses.append(loss.item())
            y_pred.append(logits)
    return y_pred, losses
