#!/usr/bin/python3
"""spa_reference.py - an independent Hansen SPA test (2005) and White Reality Check (2000) in
numpy, to hold the stats stage's SPA to: the stationary bootstrap of Politis and Romano (1994)
drawn with numpy's generator, the Politis-White (2004) block length with the Patton, Politis and
White (2009) correction computed from its formulas, and omega from Hansen's kernel estimator
(section 2.2, the stationary bootstrap's own weights) rather than the bootstrap variance.

    spa_reference.py MATRIX.bin [RESAMPLES [SEED]]   prints the p-values as JSON
    spa_reference.py --write OUT.bin KIND BARS COLS SEED
                     writes a seeded family: KIND "winner" (one column earns a real edge) or
                     "noise" (none does), AR(1) per-bar returns (each above -1, as a
                     compounded curve's are), in variant_returns.bin's layout
"""
import json
import struct
import sys

import numpy as np

MAGIC = b"SAVRET2\n"  # version 2: per-bar returns of each variant's compounded net equity


def read_matrix(path):
    raw = open(path, "rb").read()
    assert raw[:8] != b"SAVRET1\n", "a variant_returns.bin of version 1: equity changes, not returns"
    assert raw[:8] == MAGIC, "not a variant_returns.bin"
    t, n = struct.unpack("<QQ", raw[8:24])
    m = np.frombuffer(raw[24:], dtype="<f8")
    assert m.size == t * n
    return m.reshape(n, t).T.copy()  # bars x variants


def write_matrix(path, x):
    t, n = x.shape
    with open(path, "wb") as f:
        f.write(MAGIC + struct.pack("<QQ", t, n))
        f.write(np.ascontiguousarray(x.T, dtype="<f8").tobytes())


def family(kind, t, n, seed):
    rng = np.random.default_rng(seed)
    e = rng.standard_normal((t, n)) * 0.01
    x = np.empty_like(e)
    x[0] = e[0]
    for i in range(1, t):
        x[i] = 0.3 * x[i - 1] + e[i]

    if kind == "winner":
        x[:, n // 2] += 0.15 * x[:, n // 2].std()
    assert (x > -1).all(), "a per-bar return below -1"
    return x


def pw_block(x):
    """Politis and White (2004), corrected: the stationary bootstrap's b_opt."""
    n = x.size
    e = x - x.mean()
    kn = max(5, int(np.ceil(np.sqrt(np.log10(n)))))
    mmax = min(int(np.ceil(np.sqrt(n))) + kn, n - 1)
    full = np.correlate(e, e, mode="full")[n - 1:] / n
    r = full[:mmax + 1]
    if r[0] <= 0:
        return 1.0
    rho = r / r[0]
    bound = 2 * np.sqrt(np.log10(n) / n)
    quiet = np.abs(rho[1:]) < bound                  # quiet[k - 1] is lag k
    mhat = None
    for m in range(0, mmax - kn + 1):
        if quiet[m:m + kn].all():
            mhat = m
            break
    big = mmax if mhat is None else min(2 * max(mhat, 1), mmax)
    k = np.arange(1, big + 1)
    lam = np.where(k / big <= 0.5, 1.0, 2 * (1 - k / big))
    g = 2 * np.sum(lam * k * r[1:big + 1])
    g0 = r[0] + 2 * np.sum(lam * r[1:big + 1])
    d = 2 * g0 ** 2
    b = (2 * g ** 2 / d) ** (1 / 3) * n ** (1 / 3)
    b = min(b, np.ceil(min(3 * np.sqrt(n), n / 3)))
    return max(b, 1.0)


def kernel_omega(x, q):
    """Hansen's omega: gamma_0 + 2 sum kappa(n, i) gamma_i, stationary-bootstrap weights."""
    n = x.shape[0]
    i = np.arange(1, n)
    kappa = (n - i) / n * (1 - q) ** i + i / n * (1 - q) ** (n - i)
    out = np.empty(x.shape[1])
    for j in range(x.shape[1]):
        e = x[:, j] - x[:, j].mean()
        f = np.fft.rfft(e, 2 * n)
        gam = np.fft.irfft(f * np.conj(f))[:n] / n
        out[j] = np.sqrt(max(gam[0] + 2 * np.sum(kappa * gam[1:]), 0.0))
    return out


def bootstrap_means(x, b, reps, rng):
    n = x.shape[0]
    p = 1.0 / b
    idx = np.empty((reps, n), dtype=np.int64)
    idx[:, 0] = rng.integers(0, n, reps)
    for t in range(1, n):
        fresh = rng.random(reps) < p
        idx[:, t] = np.where(fresh, rng.integers(0, n, reps), (idx[:, t - 1] + 1) % n)
    means = np.empty((reps, x.shape[1]))
    for r in range(reps):
        means[r] = x[idx[r]].mean(0)
    return means


def spa(x, reps=2000, seed=12345):
    n = x.shape[0]
    b = float(np.mean([pw_block(x[:, j]) for j in range(x.shape[1])]))
    d = x.mean(0)
    om = kernel_omega(x, 1.0 / b)
    live = om > 0
    rn = np.sqrt(n)
    t_spa = max(0.0, np.max(rn * d[live] / om[live]))
    a = om / rn * np.sqrt(2 * np.log(np.log(n)))
    centres = {"p_lower": np.maximum(d, 0), "p_value": np.where(d >= -a, d, 0.0), "p_upper": d}
    means = bootstrap_means(x, b, reps, np.random.default_rng(seed))
    out = {"block_length": b}
    for key, g in centres.items():
        z = rn * (means[:, live] - g[live]) / om[live]
        ts = np.maximum(z.max(1), 0.0)
        out[key] = float(np.mean(ts >= t_spa))
    v = np.max(rn * d)
    vs = (rn * (means - d)).max(1)
    out["reality_check_p"] = float(np.mean(vs >= v))
    return out


def main(argv):
    if len(argv) >= 2 and argv[1] == "--write":
        out, kind, t, n, seed = argv[2], argv[3], int(argv[4]), int(argv[5]), int(argv[6])
        write_matrix(out, family(kind, t, n, seed))
        return 0
    reps = int(argv[2]) if len(argv) > 2 else 2000
    seed = int(argv[3]) if len(argv) > 3 else 12345
    print(json.dumps(spa(read_matrix(argv[1]), reps, seed), sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
