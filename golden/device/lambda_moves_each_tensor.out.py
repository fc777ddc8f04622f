# Class: a one-parameter lambda that moves its argument to CUDA (`lambda t: t.cuda()`), mapped
# over the batch's tensors. It moves tensors, like any `.cuda()`: on Trainium it raises `Found
# no NVIDIA driver` while the model is on the XLA device, so it becomes the move to the target's
# device. It was taken for a map_location function (`lambda storage, loc: storage.cuda()`),
# which torch.load always calls with two arguments, and left as written. Found at first sight in
# a text-to-image trainer (DALL-E's `map(lambda t: t.cuda(), (text, images))`). Twin:
# lambda_moves_each_tensor_twin (a two-parameter map_location lambda, kept).
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla


def train(loader, epochs=2):
    model = nn.Linear(4, 2).to(torch_xla.device())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(epochs):
        for x, y in loader:
            x, y = map(lambda t: t.to(torch_xla.device()), (x, y))
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
    return model
