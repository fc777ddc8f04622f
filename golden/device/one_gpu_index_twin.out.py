# Twin of one_gpu_index: the module names two CUDA devices (`"cuda:0"` for the encoder, `"cuda:1"`
# for the decoder: model parallel over two GPUs), which one NeuronCore per process cannot mirror
# by a string: both are reported, neither rewritten.
import torch
import torch_xla


def train(n_epoch: int = 3) -> None:
    encoder = torch.nn.Linear(4, 8).to("xla")
    decoder = torch.nn.Linear(8, 2).to("cuda:1")
    params = [*encoder.parameters(), *decoder.parameters()]
    optimizer = torch.optim.SGD(params, lr=0.1)
    for _ in range(n_epoch):
        x = torch.randn(8, 4).to("xla")
        loss = decoder(encoder(x).to("cuda:1")).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    train()
