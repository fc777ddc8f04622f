from setuptools import setup

setup(
    name="trainer",
    python_requires=">=3.10",
    install_requires=["torch==2.9.0", "torch-xla==2.9.0"],
)
