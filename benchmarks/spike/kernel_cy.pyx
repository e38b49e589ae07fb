# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The spike kernel in Cython (benchmarks/spike_core_tech.py): the same numbers as kernel.h.

Typed memoryviews check each buffer's dtype and dimensions at the call; the loops compile to C.
below(n) takes the high word of next64 * n from 32-bit halves (Cython has no 128-bit type).
"""

from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.string cimport memset

cdef enum:
    OBS = 954
    UNITS = 16
    LEVELS = 47
    HAND_MAX = 8


ctypedef struct SpikeState:
    uint64_t rng
    uint64_t bag
    uint64_t hand[2]
    int32_t turn
    int32_t seat
    int32_t units[16]


cdef inline uint64_t next64(SpikeState *s) noexcept nogil:
    s.rng += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = s.rng
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int below(SpikeState *s, uint64_t n) noexcept nogil:
    cdef uint64_t x = next64(s)
    return <int>(((x >> 32) * n + (((x & 0xFFFFFFFFULL) * n) >> 32)) >> 32)


cdef inline int popcount(uint64_t m) noexcept nogil:
    m = m - ((m >> 1) & 0x5555555555555555ULL)
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL)
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL
    return <int>((m * 0x0101010101010101ULL) >> 56)


cdef inline int kth_bit(uint64_t m, int k) noexcept nogil:
    while k > 0:
        m &= m - 1
        k -= 1
    return popcount((m & (~m + 1)) - 1)


cdef inline int32_t step_one(SpikeState *s, float *obs) noexcept nogil:
    cdef int seat = s.seat
    cdef uint64_t hand = s.hand[seat]
    cdef uint64_t low
    if popcount(hand) >= HAND_MAX:
        low = hand & (~hand + 1)
        s.hand[seat] = hand ^ low
        s.bag |= low
    cdef int tile = kth_bit(s.bag, below(s, popcount(s.bag)))
    s.bag &= ~(1ULL << tile)
    s.hand[seat] |= 1ULL << tile
    cdef int u = s.turn & (UNITS - 1)
    s.units[u] = (s.units[u] + 1 + below(s, 6)) % LEVELS
    s.turn += 1
    s.seat = seat ^ 1

    cdef int me = s.seat
    cdef int b, v
    memset(obs, 0, OBS * sizeof(float))
    for b in range(64):
        obs[b] = <float>((s.hand[me] >> b) & 1)
    obs[64] = <float>popcount(s.hand[me ^ 1]) / 64.0
    obs[65] = <float>popcount(s.bag) / 64.0
    obs[66] = <float>(s.turn & 127) / 128.0
    for v in range(UNITS):
        obs[200 + v * LEVELS + s.units[v]] = 1.0
    obs[952] = <float>me
    obs[953] = 1.0
    return tile


def step(SpikeState[::1] state, float[:, ::1] obs, int32_t[::1] tiles):
    """Step every game once: state [n] (spike dtype), obs float32 [n, 954], tiles int32 [n]."""
    cdef Py_ssize_t n = state.shape[0]
    if obs.shape[0] != n or obs.shape[1] != OBS or tiles.shape[0] != n:
        raise ValueError("obs must be float32 [n, 954] and tiles int32 [n] for n games")
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            tiles[i] = step_one(&state[i], &obs[i, 0])
