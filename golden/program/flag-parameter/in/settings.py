import json


def load_settings():
    with open("settings.json") as handle:
        return json.load(handle)
