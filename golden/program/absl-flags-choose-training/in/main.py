# Class: an entry point whose options are absl flags (`flags.DEFINE_bool`, read as `FLAGS.train`)
# and whose `main` runs through `app.run(main)`: the launch line turns training on in a flag file
# it names (`--flagfile config/train.txt`, one `--option` a line), so the step is on the launch
# path and is judged.
import torch
from absl import app, flags
from torch import nn

FLAGS = flags.FLAGS
flags.DEFINE_bool("train", False, help="train from scratch")
flags.DEFINE_bool("eval", False, help="evaluate a checkpoint")
flags.DEFINE_integer("total_steps", 100, help="steps")

device = torch.device("cuda:0")


def train():
    model = nn.Linear(4, 2).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(FLAGS.total_steps):
        x = torch.randn(8, 4).to(device)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def evaluate():
    model = nn.Linear(4, 2)
    print(model(torch.randn(8, 4)).sum())


def main(argv):
    if FLAGS.train:
        train()
    if FLAGS.eval:
        evaluate()
    if not FLAGS.train and not FLAGS.eval:
        print("Add --train and/or --eval")


if __name__ == "__main__":
    app.run(main)
