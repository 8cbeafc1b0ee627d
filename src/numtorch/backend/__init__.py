"""The array backend: the only place numtorch imports NumPy.

Everything else spells array calls as ``xp.<name>``, so a CuPy backend can later be
swapped in here without touching the ops.
"""

import warnings as _warnings

import numpy as xp

ndarray = xp.ndarray

__all__ = ["xp", "ndarray"]

# NumPy reports floating-point edge cases (log(0), 0/0, overflow) as RuntimeWarnings; torch
# returns inf/nan silently. Silence them for calls made from numtorch's own modules only.
_warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"numtorch(\.|$)")
