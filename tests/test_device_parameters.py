"""The program model's device parameters and returns (``analysis/device_parameters.py``): which
parameters every function receiving the value reads only as a device, and which functions make
their returned tensors on the device a parameter gives."""

from __future__ import annotations

import textwrap

from trncodemod.analysis.program import build_program, device_tables_alone, summarize


def _view(files: dict[str, str], path: str = "train.py"):
    summaries = {name: summarize(textwrap.dedent(text)) for name, text in files.items()}
    return build_program(summaries).views[path]  # type: ignore[arg-type]


_TRAIN = """
    from helpers import step

    def train(model, device):
        step(model, device)

    if __name__ == "__main__":
        train(None, "cuda")
"""


def test_a_parameter_handed_on_across_modules_and_read_only_as_a_device_is_one() -> None:
    view = _view(
        {
            "train.py": _TRAIN,
            "helpers.py": """
                import torch

                def step(model, device):
                    x = torch.zeros(2, device=device)
                    return model(x.to(device))
            """,
        }
    )
    assert view.device_parameters["train"] == (("device", 1),)
    assert view.device_parameters["step"] == (("device", 1),)


def test_a_use_other_than_as_a_device_deeper_down_rules_the_parameter_out() -> None:
    for use in (
        'print(f"on {device}")',
        'device.startswith("cuda")',
        'device == "cuda"',
        "logging.info(device)",
        "str(device)",
    ):
        view = _view(
            {
                "train.py": _TRAIN,
                "helpers.py": f"""
                    import logging
                    import torch

                    def step(model, device):
                        {use}
                        return model(torch.zeros(2, device=device))
                """,
            }
        )
        assert "train" not in view.device_parameters, use


def test_an_attribute_of_the_instance_read_only_as_a_device_keeps_the_parameter() -> None:
    files = {
        "train.py": """
            from augment import Augment

            def train(device):
                return Augment(0.5, device)
        """,
        "augment.py": """
            import torch

            class Augment:
                def __init__(self, p, device):
                    self.device = device

                def __call__(self, x):
                    return x + torch.randn(3, device=self.device)
        """,
    }
    assert _view(files).device_parameters == {
        "Augment": (("device", 1),),
        "train": (("device", 0),),
    }
    files["augment.py"] += (
        "\n                def name(self):\n                    return self.device\n"
    )
    assert _view(files).device_parameters == {}


def test_recursion_that_only_passes_the_device_on_keeps_it() -> None:
    view = device_tables_alone(
        textwrap.dedent(
            """
            import torch

            def grow(n, device):
                if n == 0:
                    return torch.zeros(1, device=device)
                return grow(n - 1, device)
            """
        )
    )
    assert view.device_parameters == {"grow": (("device", 1),)}
    assert view.device_returns == {"grow": (("device", 1),)}


def test_a_closure_that_reads_the_parameter_is_not_followed() -> None:
    view = device_tables_alone(
        textwrap.dedent(
            """
            import torch

            def train(device):
                def log():
                    print(device)
                return torch.zeros(1, device=device)
            """
        )
    )
    assert view.device_parameters == {}


def test_returns_made_on_the_given_device_through_helpers_and_lists() -> None:
    view = device_tables_alone(
        textwrap.dedent(
            """
            import torch

            def make_noise(batch, count, device):
                if count == 1:
                    return torch.randn(batch, 4, device=device)
                return torch.randn(count, batch, 4, device=device).unbind(0)

            def mixing_noise(batch, device):
                return [make_noise(batch, 1, device), make_noise(batch, 2, device)]

            def on_host(batch, device):
                return torch.randn(batch, 4)

            def moved_back(batch, device):
                return make_noise(batch, 1, device).cpu()
            """
        )
    )
    assert view.device_returns == {
        "make_noise": (("device", 2),),
        "mixing_noise": (("device", 1),),
    }


def test_a_method_called_through_its_class_is_not_followed() -> None:
    # `Noise.make(noise, device)` binds `device` to `batch`: the positions shift by the instance.
    view = device_tables_alone(
        textwrap.dedent(
            """
            import torch

            class Noise:
                def make(self, batch, device="cpu"):
                    return torch.randn(batch, device=device)

            def train(noise, device):
                return Noise.make(noise, device)
            """
        )
    )
    assert "train" not in view.device_parameters
