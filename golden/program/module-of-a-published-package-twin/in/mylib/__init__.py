from mylib.sampling import Sampler, orthogonal
