# float64 whose comment gives a reason for it is kept and reported (TRN219); a comment that only
# names the dtype is no reason, and those are rewritten.
import torch


def log_partition(scores, counts):
    # use double for numerical stability: the sum of exponentials overflows in float32
    total = torch.logsumexp(scores.double(), dim=-1)
    cov = torch.zeros(8, 8, dtype=torch.float64)  # exact accumulation of the covariance
    weights = counts.double()  # convert to double
    ratio = scores.double() / 2  # double the scores for the ratio
    return total, cov, weights, ratio
