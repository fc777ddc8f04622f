import pathlib

import setuptools

# Never executed by trncodemod doctor: running it would leave this file behind.
pathlib.Path(__file__).with_name("EXECUTED").write_text("setup.py was run")

REQUIRES = [
    "torch==2.8.0",
    "torch-xla==2.9.0",
]

setuptools.setup(
    name="trainer",
    python_requires=">=3.7,<3.10",
    install_requires=REQUIRES,
    extras_require={"hf": ["accelerate==1.5.0"]},
)
