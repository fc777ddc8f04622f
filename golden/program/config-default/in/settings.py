def load_device():
    with open("device.txt") as handle:
        return handle.read().strip()
