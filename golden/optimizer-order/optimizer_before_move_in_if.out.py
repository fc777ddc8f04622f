# Class: an optimizer built, then an `if` with no `else` that moves the model and the data to
# the device (`if args.cuda: model.cuda(); features = features.cuda()`, a graph network's
# script): the whole `if` is put before the optimizer (TRN053), so the optimizer takes the
# parameters the model trains with on the XLA device.
# Twin: optimizer_before_move_in_if_twin.
import torch
import torch.optim as optim


def setup(args, model, features, adj):
    if args.cuda:
        model.cuda()
        features = features.cuda()
        adj = adj.cuda()

    optimizer = optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    return optimizer, features, adj
