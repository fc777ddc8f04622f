# Class: a save of several state dicts in a tuple or list (an actor-critic's networks saved
# together). xm.save moves every tensor of nested containers to the CPU, so the save is one of
# states, as a dict of them is.
import torch
import torch_xla
import torch_xla.core.xla_model as xm


def main(actor, qf1, qf2, train, path):
    train(actor, qf1, qf2)
    torch_xla.sync()
    xm.save((actor.state_dict(), qf1.state_dict(), qf2.state_dict()), path)
    xm.save([actor.state_dict()], path + ".actor")
