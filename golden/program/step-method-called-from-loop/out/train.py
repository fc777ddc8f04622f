import argparse

import torch
import torch_xla

import agents


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--algo", default="a2c")
    args = parser.parse_args()
    device = torch_xla.device()
    model = torch.nn.Linear(4, 1).to(device)
    if args.algo == "a2c":
        agent = agents.A2C(model, 0.01)
    else:
        agent = agents.PPO(model, 0.01)
    for j in range(100):
        batch = torch.randn(8, 4, device=device)
        loss = agent.update(batch)
        if j % 10 == 0:
            print(j, loss)


if __name__ == "__main__":
    main()
