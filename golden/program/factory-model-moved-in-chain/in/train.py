import argparse

import torch

from models import get_backbone, get_model


def main(args, loader):
    device = torch.device(args.device)
    model = get_model(args.model).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        loss = model(x.to(device))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()

    frozen = get_backbone(args.backbone).to(device)
    probe = torch.nn.Linear(8, 2).to(device)
    probe_optimizer = torch.optim.SGD(probe.parameters(), lr=0.1)
    for x, y in loader:
        with torch.no_grad():
            feature = frozen(x.to(device))
        loss = torch.nn.functional.cross_entropy(probe(feature), y.to(device))
        loss.backward()
        probe_optimizer.step()
        probe_optimizer.zero_grad()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--model", default="simnet")
    parser.add_argument("--backbone", default="resnet_tiny")
    main(parser.parse_args(), [])
