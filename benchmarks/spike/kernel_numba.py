"""The spike kernel with numba (benchmarks/spike_core_tech.py): the same numbers as kernel.h.

``@njit(cache=True)`` over the structured state array; every integer is a ``np.uint64`` so numba
keeps 64-bit wrap-around arithmetic (a uint64 mixed with a Python int becomes a float in numba).
below(n) takes the high word of next64 * n from 32-bit halves (numba has no 128-bit integer).
"""

from __future__ import annotations

import numpy as np
from numba import njit

OBS = 954
UNITS = 16
LEVELS = 47
HAND_MAX = 8

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_ONE = np.uint64(1)
_S1 = np.uint64(0x5555555555555555)
_S2 = np.uint64(0x3333333333333333)
_S4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True, inline="always")
def _next64(s):
    z = s.rng + _GOLDEN
    s.rng = z
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _below(s, n):
    x = _next64(s)
    n = np.uint64(n)
    return np.int64(
        ((x >> np.uint64(32)) * n + (((x & _LOW32) * n) >> np.uint64(32))) >> np.uint64(32)
    )


@njit(cache=True, inline="always")
def _popcount(m):
    m = m - ((m >> _ONE) & _S1)
    m = (m & _S2) + ((m >> np.uint64(2)) & _S2)
    m = (m + (m >> np.uint64(4))) & _S4
    return np.int64((m * _H01) >> np.uint64(56))


@njit(cache=True, inline="always")
def _kth_bit(m, k):
    while k > 0:
        m &= m - _ONE
        k -= 1
    return _popcount((m & (~m + _ONE)) - _ONE)


@njit(cache=True)
def _step(state, obs, tiles):
    for i in range(state.shape[0]):
        s = state[i]
        seat = s.seat
        hand = s.hand[seat]
        if _popcount(hand) >= HAND_MAX:
            low = hand & (~hand + _ONE)
            s.hand[seat] = hand ^ low
            s.bag = s.bag | low
        tile = _kth_bit(s.bag, _below(s, _popcount(s.bag)))
        bit = _ONE << np.uint64(tile)
        s.bag = s.bag & ~bit
        s.hand[seat] = s.hand[seat] | bit
        u = s.turn & (UNITS - 1)
        s.units[u] = (s.units[u] + 1 + _below(s, 6)) % LEVELS
        s.turn += 1
        s.seat = seat ^ 1

        me = s.seat
        o = obs[i]
        o[:] = 0.0
        mine = s.hand[me]
        for b in range(64):
            o[b] = np.float32((mine >> np.uint64(b)) & _ONE)
        o[64] = np.float32(_popcount(s.hand[me ^ 1])) / np.float32(64.0)
        o[65] = np.float32(_popcount(s.bag)) / np.float32(64.0)
        o[66] = np.float32(s.turn & 127) / np.float32(128.0)
        for v in range(UNITS):
            o[200 + v * LEVELS + s.units[v]] = 1.0
        o[952] = np.float32(me)
        o[953] = 1.0
        tiles[i] = tile


def step(state: np.ndarray, obs: np.ndarray, tiles: np.ndarray) -> None:
    """Step every game once: state [n] (spike dtype), obs float32 [n, 954], tiles int32 [n]."""
    n = state.shape[0]
    if obs.shape != (n, OBS) or tiles.shape != (n,):
        raise ValueError("obs must be float32 [n, 954] and tiles int32 [n] for n games")
    _step(state, obs, tiles)
