# Class: an evaluation or inference loop whose reads on the host are not at the top of its body
# (a confidence formatted per sample, `f"{score:0.4f}"`; values handed to a decoder), where a cut
# could only go at the end of the body, after every read; nothing it computes leaves the
# iteration but through those reads (printed, written as text), and nothing is carried to the
# next batch. That cut would only run again what is still alive and dropped at the next
# iteration: one more execution a batch (a label read and a confidence formatted per sample:
# 9.00 executions a batch, 10.00 with the cut after them; three reads: 3.00 against 4.00;
# benchmarks/step_shapes/eval_host_read.py). No cut. Twin: eval_reads_all_on_host_twin.
import torch
import torch.nn.functional as F


def demo(model, converter, loader, log_path, device):
    model.eval()
    with torch.no_grad():
        for image_tensors, image_path_list in loader:
            batch_size = image_tensors.size(0)
            image = image_tensors.to(device)
            length_for_pred = torch.IntTensor([25] * batch_size).to(device)
            preds = model(image)
            _, preds_index = preds.max(2)
            preds_str = converter.decode(preds_index, length_for_pred)
            log = open(log_path, "a")
            print("-" * 80)
            preds_prob = F.softmax(preds, dim=2)
            preds_max_prob, _ = preds_prob.max(dim=2)
            for img_name, pred, pred_max_prob in zip(image_path_list, preds_str, preds_max_prob):
                confidence_score = pred_max_prob.cumprod(dim=0)[-1]
                print(f"{img_name:25s}\t{pred:25s}\t{confidence_score:0.4f}")
                log.write(f"{img_name:25s}\t{pred:25s}\t{confidence_score:0.4f}\n")
            log.close()



def report(model, loader, device):
    with torch.no_grad():
        for step, x in enumerate(loader):
            out = model(x.to(device))
            loss = out.pow(2).mean()
            print(f"batch {step}: {loss:.4f} {out.abs().max():.2f}")
