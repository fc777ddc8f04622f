# Twin of raising_call_after_early_exit: the early exit is on a test Trainium does not decide
# (a flag), or it does not leave the block (no return), or the call comes before it: the calls
# that raise without CUDA stay blockers.
import torch


class Attend:
    def __init__(self, flash=False):
        self.cuda_config = None
        if not flash:
            return
        properties = torch.cuda.get_device_properties(torch.device("cuda"))
        self.cuda_config = properties.major >= 8


def load_fa3():
    if not torch.cuda.is_available():
        print("no CUDA")
    major, _ = torch.cuda.get_device_capability()
    return major


def report():
    print(torch.cuda.memory_summary())
    if not torch.cuda.is_available():
        return


def main():
    # A whole check that stops the script without CUDA: TRN803 removes it, so the migrated
    # program runs on past it, and the call below raises there (a blocker).
    if not torch.cuda.is_available():
        raise RuntimeError("this script needs a GPU")
    print(torch.cuda.memory_summary())


if __name__ == "__main__":
    main()
