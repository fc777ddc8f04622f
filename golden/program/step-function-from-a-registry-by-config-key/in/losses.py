# Class: the step's loss is a function of the program looked up in a registry by a key the
# configuration holds (`loss_registry[config.loss](model, x, t)`): the evaluator follows each
# function the registry can give, and the step runs where every one of them puts it.
import torch


def noise_estimation_loss(model, x0, t):
    e = torch.randn_like(x0)
    output = model(x0 + e)
    return (e - output).square().sum(dim=1).mean(dim=0)


def l1_noise_loss(model, x0, t):
    e = torch.randn_like(x0)
    return (e - model(x0 + e)).abs().sum(dim=1).mean(dim=0)


loss_registry = {"simple": noise_estimation_loss, "l1": l1_noise_loss}
