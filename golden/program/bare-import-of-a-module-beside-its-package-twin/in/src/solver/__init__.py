from .solver import Solver
