# Class: an evaluation or inference loop whose reads on the host run one graph an iteration,
# and that carries nothing on the device: no cut. Its other reads copy a batch only moved to the
# device (`labels.cpu()`: device data, no graph to run) or read values made after the place a cut
# would go (a second sample drawn after the first was saved); a name reassigned from itself after
# an earlier statement of the iteration assigned it (`trg = trg[1:].view(-1)`) is not carried.
# A cut would add an execution: 2.0 a batch against 1.0 with no cut for the argmax-and-labels
# read (benchmarks/step_shapes/eval_host_read.py). Twin: eval_one_computed_read_twin.
import numpy as np
import torch
from torchvision.utils import save_image


def validate(model, loader, metrics, device):
    with torch.no_grad():
        for images, labels in loader:
            images = images.to(device, dtype=torch.float32)
            labels = labels.to(device, dtype=torch.long)
            outputs = model(images)
            preds = outputs.detach().max(dim=1)[1].cpu().numpy()
            targets = labels.cpu().numpy()
            metrics.update(targets, preds)
            for i in range(len(preds)):
                pred = preds[i]
                pred = np.uint8(pred)
                metrics.save(pred)


def evaluate_fn(model, data_loader, criterion, device):
    epoch_loss = 0
    with torch.no_grad():
        for batch in data_loader:
            src = batch["src"].to(device)
            trg = batch["trg"].to(device)
            output = model(src, trg)
            output = output[1:].view(-1, output.shape[-1])
            trg = trg[1:].view(-1)
            epoch_loss += criterion(output, trg).item()
    return epoch_loss / len(data_loader)


def predict(model, transform, images, device):
    with torch.no_grad():
        for image in images:
            img = transform(image).unsqueeze(0)
            img = img.to(device)
            pred = model(img).max(1)[1].cpu().numpy()[0]
            print(pred)


def sample(model, x, steps, device):
    with torch.no_grad():
        for step in range(steps):
            z = torch.randn(64, 20).to(device)
            out = model.decode(z)
            save_image(out, f"sampled-{step}.png")
            rec = model(x)
            save_image(torch.cat([x, rec], dim=3), f"reconst-{step}.png")
