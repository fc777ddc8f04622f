import importlib


def load_registry(name):
    return importlib.import_module(name)
