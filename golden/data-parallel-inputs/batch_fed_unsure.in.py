# Where the tool cannot move a batch element with certainty, it says which to move and why: the
# element is fed to the model unpacked (`model(*[x])`), and the one-line loop has no statement
# to add a move beside. Elements moved in the loop (`x, z` beside `y`) are moved together.
import torch.nn as nn


def evaluate(net, loader):
    model = nn.DataParallel(net).cuda()
    for x, y in loader: print(model(x), y.cuda())
    for x, y in loader:
        y = y.cuda()
        print(model(x=x), model(*[x]))
    for (x, y), z in loader:
        y = y.cuda()
        print(model(x, z))
