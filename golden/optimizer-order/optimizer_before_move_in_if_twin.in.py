# Twin of optimizer_before_move_in_if: an `if` with an `else`, and an `if` that also uses the
# optimizer, are not moved.
import torch.optim as optim


def with_else(args, model):
    optimizer = optim.Adam(model.parameters(), lr=args.lr)
    if args.cuda:
        model.cuda()
    else:
        print("on the CPU")
    return optimizer


def uses_optimizer(args, model, state):
    optimizer = optim.Adam(model.parameters(), lr=args.lr)
    if args.cuda:
        model.cuda()
        optimizer.load_state_dict(state)
    return optimizer
