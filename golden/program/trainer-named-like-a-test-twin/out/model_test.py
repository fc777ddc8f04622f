# Twin: a real test named like one (pytest test functions, run from its `__main__` block too)
# that trains a step on CUDA and compares it with a CPU reference: test code, no entry point,
# what would block a program a warning.
import torch
import torch_xla

from model import Net


def test_step_matches_cpu_reference():
    torch.manual_seed(0)
    torch_xla.manual_seed(0)
    reference = Net()
    model = Net().to(torch_xla.device())
    model.load_state_dict(reference.state_dict())
    x = torch.randn(8, 4)
    reference(x).sum().backward()
    model(x.to(torch_xla.device())).sum().backward()
    for ours, theirs in zip(model.parameters(), reference.parameters()):
        assert torch.allclose(ours.grad.cpu(), theirs.grad, atol=1e-5)
    print(torch.cuda.memory_summary())


if __name__ == "__main__":
    test_step_matches_cpu_reference()
