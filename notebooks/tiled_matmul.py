# ---
# sitegen:
#   requires: [numpy]
# ---
"""
Tiling a matrix multiplication
==============================

A compiler rarely runs a loop nest in the order it was written. One of the
first things it does to a matrix multiplication is *tiling*: cutting the
iteration space into blocks small enough that the data of one block stays in
fast memory while it is used. This tutorial tiles ``C = A @ B`` by hand with
NumPy and checks that the result does not change.

This tutorial is written as a Python script in sphinx-gallery's format, the way
TVM's tutorials are: the docstring and the comment blocks are its text, and the
code in between runs when the site is built.
"""

import numpy as np

rng = np.random.default_rng(seed=11)
M, K, N = 96, 64, 80
A = rng.standard_normal((M, K)).astype("float32")
B = rng.standard_normal((K, N)).astype("float32")
reference = A @ B

######################################################################
# The loop nest
# -------------
# Written as loops, each element of ``C`` is a sum over ``k``:
# :math:`C_{ij} = \sum_k A_{ik} B_{kj}`. The three loops are independent of
# each other's order, which is what gives a compiler the freedom to reorder
# and split them. Python loops are slow, so this version only computes a
# corner of ``C`` to show that it is right.


def matmul_loops(A, B, rows, cols):
    C = np.zeros((rows, cols), dtype=A.dtype)
    for i in range(rows):
        for j in range(cols):
            for k in range(A.shape[1]):
                C[i, j] += A[i, k] * B[k, j]
    return C


corner = matmul_loops(A, B, 8, 8)
np.testing.assert_allclose(corner, reference[:8, :8], rtol=1e-4, atol=1e-4)
print("the loop nest agrees with A @ B on an 8 x 8 corner")

######################################################################
# Splitting the loops into tiles
# ------------------------------
# Tiling splits each loop in two: an outer loop over tiles and an inner loop
# within a tile. The inner three loops together compute one block of ``C``
# from a row of blocks of ``A`` and a column of blocks of ``B``; here NumPy's
# ``@`` stands in for them.
#
# .. note::
#    The tile sizes need not divide the matrix sizes: the last tile in each
#    direction is simply smaller, which is the "tail" a compiler must handle.


def matmul_tiled(A, B, tile_m=32, tile_n=32, tile_k=16):
    M, K = A.shape
    N = B.shape[1]
    C = np.zeros((M, N), dtype=A.dtype)
    for i0 in range(0, M, tile_m):
        for j0 in range(0, N, tile_n):
            for k0 in range(0, K, tile_k):
                C[i0:i0 + tile_m, j0:j0 + tile_n] += (
                    A[i0:i0 + tile_m, k0:k0 + tile_k] @ B[k0:k0 + tile_k, j0:j0 + tile_n]
                )
    return C


for tiles in [(32, 32, 16), (16, 48, 64), (96, 80, 64), (7, 11, 13)]:
    np.testing.assert_allclose(matmul_tiled(A, B, *tiles), reference, rtol=1e-4, atol=1e-4)
    print(f"tiles {tiles}: same result")

# %%
# Counting the tiles
# ------------------
# Every choice of tile sizes computes the same ``C``; what changes is how
# much data each tile touches, which decides whether it fits in a cache.
# For float32 values:

for tm, tn, tk in [(32, 32, 16), (64, 64, 64), (96, 80, 64)]:
    tiles = -(-M // tm) * -(-N // tn) * -(-K // tk)
    footprint = (tm * tk + tk * tn + tm * tn) * 4
    print(f"tile {tm:>2} x {tn:>2} x {tk:>2}: {tiles:>3} tiles, {footprint / 1024:5.1f} KiB each")

######################################################################
# Summary
# -------
# Tiling reorders the work of a loop nest without changing its result.
# Searching for the tile sizes that suit a given processor is part of what
# TVM's schedules and auto-tuners do.
