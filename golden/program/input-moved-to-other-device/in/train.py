# Class: the step's inputs moved to a device other than the model's. A feature device that is
# the CPU on the launch line (`--cpu-feats`, README) feeds the model: "does not", at that move.
# A second GPU kept as it is (`torch.device("cuda:1")`, reported) is never reused as the device
# of a `.cuda()` the tool rewrites: the labels go where the model is.
import argparse

import torch


def main(args, loader):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    feat_device = "cpu" if args.cpu_feats else device
    aux_device = torch.device("cuda:1")
    model = torch.nn.Linear(8, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        x = x.to(feat_device)
        loss = torch.nn.functional.cross_entropy(model(x), y.cuda())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        torch.save(loss.detach().to(aux_device), "last_loss.pt")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--cpu-feats", action="store_true")
    main(parser.parse_args(), [])
