# Twin of batchnorm-eval-differentiated: the same adversarial training and attack evaluation
# over a model with GroupNorm instead (no running statistics): its backward in eval mode runs,
# so train.py runs on the accelerator; the attack evaluation still trains nothing (no step).
import torch
import torch.nn.functional as F
import torch_xla


def adversarial_loss(model, x, y, steps=3, step_size=0.01):
    model.eval()
    x_adv = x.detach() + 0.001 * torch.randn_like(x)
    for _ in range(steps):
        x_adv.requires_grad_()
        loss = F.cross_entropy(model(x_adv), y)
        grad = torch.autograd.grad(loss, [x_adv])[0]
        x_adv = x_adv.detach() + step_size * torch.sign(grad.detach())
        torch_xla.sync()
    model.train()
    return F.cross_entropy(model(x_adv.detach()), y)
