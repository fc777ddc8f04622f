# Twin: `CUDAExtension` in a setup script builds at install time, not when the program runs; the
# run's import of the built module is another matter. Nothing is reported here.
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="fused_ops",
    ext_modules=[CUDAExtension("fused_ops", ["fused_ops.cpp", "fused_ops_kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
