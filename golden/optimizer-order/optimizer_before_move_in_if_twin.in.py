# Twin of optimizer_before_move_in_if: an `if` whose `else` uses the optimizer, and an `if` that
# uses it in its body, are not moved.
import torch.optim as optim


def with_else(args, model):
    optimizer = optim.Adam(model.parameters(), lr=args.lr)
    if args.cuda:
        model.cuda()
    else:
        print("on the CPU with", optimizer)
    return optimizer


def uses_optimizer(args, model, state):
    optimizer = optim.Adam(model.parameters(), lr=args.lr)
    if args.cuda:
        model.cuda()
        optimizer.load_state_dict(state)
    return optimizer
