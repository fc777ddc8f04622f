# Class: a model holding BatchNorm layers differentiated in eval mode. Adversarial training
# (TRADES, PGD) puts the model in eval mode and takes the input's gradient every step; an attack
# evaluation does the same with no optimizer. On torch-xla 2.9 the backward of BatchNorm with
# running statistics raises ("the size of offset factor is 0", benchmarks/xla_facts.py
# batchnorm_eval_backward): train.py does not run on the accelerator (the cause is the model
# call in eval mode), and attack_eval.py trains nothing (no step). Found at first sight in an
# adversarial-training repository claimed "runs". Twin: batchnorm-eval-differentiated-twin.
import torch
import torch.nn.functional as F


def adversarial_loss(model, x, y, steps=3, step_size=0.01):
    model.eval()
    x_adv = x.detach() + 0.001 * torch.randn_like(x)
    for _ in range(steps):
        x_adv.requires_grad_()
        loss = F.cross_entropy(model(x_adv), y)
        grad = torch.autograd.grad(loss, [x_adv])[0]
        x_adv = x_adv.detach() + step_size * torch.sign(grad.detach())
    model.train()
    return F.cross_entropy(model(x_adv.detach()), y)
