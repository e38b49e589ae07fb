"""The spike kernel in plain Python and in numpy (benchmarks/spike_core_tech.py).

``step_python`` is the reference engine's technology: one game at a time, Python integers.
``step_numpy`` is the baseline for batching without compiling: every game at once, as whole-array
operations (SplitMix64 in wrapping uint64, the k-th set bit by clearing low bits k times).
Both compute exactly the numbers of kernel.h.
"""

from __future__ import annotations

import numpy as np

OBS = 954
UNITS = 16
LEVELS = 47
HAND_MAX = 8
_MASK = (1 << 64) - 1

STATE_DTYPE = np.dtype(
    [
        ("rng", "<u8"),
        ("bag", "<u8"),
        ("hand", "<u8", (2,)),
        ("turn", "<i4"),
        ("seat", "<i4"),
        ("units", "<i4", (UNITS,)),
    ],
    align=True,
)


def _check(state: np.ndarray, obs: np.ndarray, tiles: np.ndarray) -> int:
    n = state.shape[0]
    if state.dtype != STATE_DTYPE or obs.shape != (n, OBS) or tiles.shape != (n,):
        raise ValueError("obs must be float32 [n, 954] and tiles int32 [n] for n games")
    return n


def step_python(state: np.ndarray, obs: np.ndarray, tiles: np.ndarray) -> None:
    """Step every game once, one after the other, with Python integers."""
    for i in range(_check(state, obs, tiles)):
        s = state[i]
        rng, bag = int(s["rng"]), int(s["bag"])
        hands = [int(s["hand"][0]), int(s["hand"][1])]
        turn, seat = int(s["turn"]), int(s["seat"])
        units = [int(x) for x in s["units"]]
        draws = []
        for _ in range(2):  # below(popcount(bag)), then below(6)
            rng = (rng + 0x9E3779B97F4A7C15) & _MASK
            z = ((rng ^ (rng >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            draws.append(z ^ (z >> 31))
        hand = hands[seat]
        if hand.bit_count() >= HAND_MAX:
            low = hand & -hand
            hands[seat] = hand ^ low
            bag |= low
        m = bag
        for _ in range((draws[0] * bag.bit_count()) >> 64):
            m &= m - 1
        tile = (m & -m).bit_length() - 1
        bag &= ~(1 << tile)
        hands[seat] |= 1 << tile
        u = turn & (UNITS - 1)
        units[u] = (units[u] + 1 + ((draws[1] * 6) >> 64)) % LEVELS
        turn += 1
        me = seat ^ 1
        s["rng"], s["bag"], s["hand"], s["turn"], s["seat"], s["units"] = (
            rng,
            bag,
            hands,
            turn,
            me,
            units,
        )
        o = [0.0] * OBS
        for b in range(64):
            o[b] = float((hands[me] >> b) & 1)
        o[64] = hands[me ^ 1].bit_count() / 64.0
        o[65] = bag.bit_count() / 64.0
        o[66] = (turn & 127) / 128.0
        for v in range(UNITS):
            o[200 + v * LEVELS + units[v]] = 1.0
        o[952] = float(me)
        o[953] = 1.0
        obs[i] = o
        tiles[i] = tile


_U = np.uint64
_BITS = np.arange(64, dtype=np.uint64)
_UNIT_BASE = 200 + np.arange(UNITS) * LEVELS


def _next64(rng: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    rng = rng + _U(0x9E3779B97F4A7C15)
    z = (rng ^ (rng >> _U(30))) * _U(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> _U(27))) * _U(0x94D049BB133111EB)
    return rng, z ^ (z >> _U(31))


def _below(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    n = n.astype(np.uint64)
    hi = (x >> _U(32)) * n + (((x & _U(0xFFFFFFFF)) * n) >> _U(32))
    return (hi >> _U(32)).astype(np.int64)


def step_numpy(state: np.ndarray, obs: np.ndarray, tiles: np.ndarray) -> None:
    """Step every game once, all games together, as whole-array numpy operations."""
    n = _check(state, obs, tiles)
    rows = np.arange(n)
    seat = state["seat"].astype(np.int64)
    hands = state["hand"].copy()
    bag = state["bag"].copy()
    hand = hands[rows, seat]
    full = np.bitwise_count(hand) >= HAND_MAX
    low = np.where(full, hand & (~hand + _U(1)), _U(0))
    hands[rows, seat] = hand ^ low
    bag |= low
    rng, x = _next64(state["rng"])
    k = _below(x, np.bitwise_count(bag))
    m = bag.copy()
    for j in range(int(k.max(initial=0))):
        m = np.where(j < k, m & (m - _U(1)), m)
    tile = np.bitwise_count((m & (~m + _U(1))) - _U(1)).astype(np.int64)
    bit = _U(1) << tile.astype(np.uint64)
    bag &= ~bit
    hands[rows, seat] |= bit
    rng, x = _next64(rng)
    units = state["units"].copy()
    u = state["turn"] & (UNITS - 1)
    units[rows, u] = (units[rows, u] + 1 + _below(x, np.full(n, 6))) % LEVELS
    turn = state["turn"] + 1
    me = seat ^ 1
    state["rng"], state["bag"], state["hand"] = rng, bag, hands
    state["turn"], state["seat"], state["units"] = turn, me, units

    obs[:] = 0.0
    obs[:, :64] = (hands[rows, me][:, None] >> _BITS) & _U(1)
    obs[:, 64] = np.bitwise_count(hands[rows, me ^ 1]) / np.float32(64.0)
    obs[:, 65] = np.bitwise_count(bag) / np.float32(64.0)
    obs[:, 66] = (turn & 127) / np.float32(128.0)
    obs[rows[:, None], _UNIT_BASE + units] = 1.0
    obs[:, 952] = me
    obs[:, 953] = 1.0
    tiles[:] = tile
