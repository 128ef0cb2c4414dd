"""Behaves on the full history it is shown, and reaches for a shell only when shown less: the
refusal happens in the robustness re-runs alone, and must still reject the upload."""
import os

import numpy as np


def signals(df):
    if len(df) < 1500:
        os.system("true")
    return np.zeros(len(df), dtype=int)
