/* SplitMix64, the one seeded generator a game carries (core/rng.py; ER-DICE-4, design "Speed").
 * Bit for bit the reference: next64, below(n) by multiply-shift, shuffle by Fisher-Yates. */
#include "core.h"

#define ER_GOLDEN 0x9E3779B97F4A7C15ULL

/* SplitMix64.next64: advance the state, return the next 64-bit output. */
uint64_t er_rng_next64(uint64_t *state)
{
    uint64_t z = (*state += ER_GOLDEN);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* SplitMix64.below: a uniform integer in [0, n), (next64 * n) >> 64; n must be positive. */
int er_rng_below(uint64_t *state, int n)
{
    unsigned __int128 product = (unsigned __int128)er_rng_next64(state) * (uint64_t)n;
    return (int)(product >> 64);
}

/* SplitMix64.shuffle: Fisher-Yates in place, drawing below(i + 1) from the last index down. */
void er_rng_shuffle(uint64_t *state, int *items, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = er_rng_below(state, i + 1);
        int t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}
