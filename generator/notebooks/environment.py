"""What this machine offers a tutorial: kernels, Python modules inside them, devices.

Modules are looked up with the kernel's own interpreter, not the build's, since
that is where the tutorial will import them. Devices are looked for the way
their drivers show themselves on Linux.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path


EXTRA = "sitegen's 'execute' extra (pip install 'sitegen-oss[execute]')"
FIND_MODULES = """
import importlib.util, sys
def found(name):
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:
        return False
print("\\n".join(name for name in sys.argv[1:] if not found(name)))
"""

LIST_PACKAGES = """
import importlib.metadata as metadata
print("\\n".join(sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions())))
"""

DEVICES = {
    "cpu": lambda: True,
    "cuda": lambda: Path("/dev/nvidiactl").exists() or shutil.which("nvidia-smi") is not None,
    "rocm": lambda: Path("/dev/kfd").exists(),
    "metal": lambda: platform.system() == "Darwin",
}


def missing(kernel: str, modules: tuple[str, ...], device: str | None) -> list[str]:
    """What a tutorial needs that is not here, e.g. ``["module tvm", "device cuda"]``."""
    if not can_run():
        return [EXTRA]
    argv = kernel_argv(kernel)
    if argv is None:
        return [f"kernel {kernel}"]
    lacking = [f"module {name}" for name in missing_modules(argv, modules)]
    if device and not DEVICES[device]():
        lacking.append(f"device {device}")
    return lacking


def can_run() -> bool:
    """Whether Jupyter's kernel stack is installed: it is an extra, which a blog never needs."""
    try:
        import jupyter_client  # noqa: F401
        import nbclient  # noqa: F401
    except ImportError:
        return False
    return True


def kernel_argv(name: str) -> tuple[str, ...] | None:
    try:
        from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    except ImportError:         # no kernel stack, so no kernel
        return None
    try:
        spec = KernelSpecManager().get_kernel_spec(name)
    except NoSuchKernel:
        return None
    return tuple(spec.argv) if spec.language.lower() == "python" else ()


def package_set(kernel: str) -> str:
    """A digest of the distributions the kernel's Python has installed: ``pip install`` changes it."""
    argv = kernel_argv(kernel)
    if not argv:
        return "no kernel" if argv is None else "not python"
    result = subprocess.run([_python(argv), "-c", LIST_PACKAGES], capture_output=True, text=True,
                            env={**os.environ, "PYTHONSAFEPATH": "1"}, timeout=60)
    return hashlib.sha256(result.stdout.encode("utf-8")).hexdigest()


def missing_modules(kernel: tuple[str, ...], modules: tuple[str, ...]) -> tuple[str, ...]:
    """The ``modules`` the kernel's Python cannot import (none checked for other languages)."""
    if not modules or not kernel:
        return ()
    result = subprocess.run([_python(kernel), "-c", FIND_MODULES, *modules], capture_output=True, text=True,
                            env={**os.environ, "PYTHONSAFEPATH": "1"}, timeout=60)
    return tuple(line for line in result.stdout.split("\n") if line)


def _python(kernel: tuple[str, ...]) -> str:
    python = kernel[0]
    if python in ("python", f"python{sys.version_info[0]}", "python%d.%d" % sys.version_info[:2]):
        return sys.executable   # as jupyter_client launches it
    return python
