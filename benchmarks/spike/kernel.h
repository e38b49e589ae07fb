/* The spike kernel in C (benchmarks/spike_core_tech.py): one batched step of a tiny game state.
 *
 * Representative of the Earth Reborn core's hot path, not of its rules: SplitMix64 with below(n) by
 * multiply-shift (core/rng.py), a draw of the k-th set bit of a 64-bit bag mask (tiles.c), a die,
 * and a 954-float observation written from a small flat struct, for each of n games. Shared by the
 * CPython-API module (capi.c) and the cffi module (kernel.cdef); kernel_cy.pyx, kernel_numba.py and
 * kernel_py.py compute exactly the same numbers. */
#ifndef SPIKE_KERNEL_H
#define SPIKE_KERNEL_H

#include <stdint.h>
#include <string.h>

#define SPIKE_OBS 954
#define SPIKE_UNITS 16
#define SPIKE_LEVELS 47
#define SPIKE_HAND_MAX 8
#define SPIKE_FULL_BAG ((1ULL << 48) - 1)   /* 48 tiles */

typedef struct {
    uint64_t rng;                 /* SplitMix64 state */
    uint64_t bag;                 /* tiles in the bag, one bit each */
    uint64_t hand[2];             /* tiles behind each seat's screen */
    int32_t turn;
    int32_t seat;                 /* seat to move */
    int32_t units[SPIKE_UNITS];   /* a level in [0, 47) per unit */
} SpikeState;                     /* 104 bytes, no padding */

static inline uint64_t spike_next64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline int spike_below(uint64_t *state, int n)
{
    return (int)(((unsigned __int128)spike_next64(state) * (uint64_t)n) >> 64);
}

static inline int spike_kth_bit(uint64_t m, int k)
{
    while (k-- > 0)
        m &= m - 1;
    return __builtin_ctzll(m);
}

/* One game: a full hand returns its lowest tile to the bag, the seat to move draws a tile, a unit
 * moves by a die, the turn passes; then the observation of the new seat to move. */
static inline int32_t spike_step_one(SpikeState *s, float *obs)
{
    int seat = s->seat;
    uint64_t hand = s->hand[seat];
    if (__builtin_popcountll(hand) >= SPIKE_HAND_MAX) {
        uint64_t low = hand & (0 - hand);
        s->hand[seat] = hand ^ low;
        s->bag |= low;
    }
    int tile = spike_kth_bit(s->bag, spike_below(&s->rng, __builtin_popcountll(s->bag)));
    s->bag &= ~(1ULL << tile);
    s->hand[seat] |= 1ULL << tile;
    int u = s->turn & (SPIKE_UNITS - 1);
    s->units[u] = (s->units[u] + 1 + spike_below(&s->rng, 6)) % SPIKE_LEVELS;
    s->turn += 1;
    s->seat = seat ^ 1;

    int me = s->seat;
    memset(obs, 0, SPIKE_OBS * sizeof(float));
    for (int b = 0; b < 64; b++)
        obs[b] = (float)((s->hand[me] >> b) & 1);
    obs[64] = (float)__builtin_popcountll(s->hand[me ^ 1]) / 64.0f;
    obs[65] = (float)__builtin_popcountll(s->bag) / 64.0f;
    obs[66] = (float)(s->turn & 127) / 128.0f;
    for (int v = 0; v < SPIKE_UNITS; v++)
        obs[200 + v * SPIKE_LEVELS + s->units[v]] = 1.0f;
    obs[952] = (float)me;
    obs[953] = 1.0f;
    return tile;
}

/* n games: state[i] steps, obs[i] is its observation, tiles[i] the tile it drew. */
static void spike_step(SpikeState *state, float *obs, int32_t *tiles, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        tiles[i] = spike_step_one(&state[i], obs + i * SPIKE_OBS);
}

#endif
