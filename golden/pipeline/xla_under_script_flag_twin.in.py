# Must not fire (twin of xla_under_script_flag): a script that keeps torch_xla optional the way
# libraries do, under `try`/`except ImportError`, and a function that imports it lazily. Making
# it required is not the tool's call: the rewrites that would import it at the top are reported.
import torch
import torch.nn as nn

try:
    import torch_xla.core.xla_model as xm

    HAS_XLA = True
except ImportError:
    HAS_XLA = False


def cut_graph() -> None:
    import torch_xla

    torch_xla.sync()


def main() -> None:
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Linear(16, 4).to(device)
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(100):
        x = torch.randn(8, 16).to(device)
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if HAS_XLA:
            cut_graph()


if __name__ == "__main__":
    main()
