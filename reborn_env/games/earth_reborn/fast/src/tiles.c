/* The bag, the discard pile and the screens (rules/tiles.py, section 5). Piles are bitmasks over
 * tile indices, so they are always sorted sets (ER-GEN-3) and every tile is in one place
 * (ER-TILE-11) as long as these functions alone move tiles between them. */
#include "core.h"

/* The index of the k-th set bit (k = 0 is the lowest) of m, which has more than k set bits. */
static int kth_bit(uint64_t m, int k)
{
    while (k-- > 0)
        m &= m - 1;
    return __builtin_ctzll(m);
}

/* tiles.refill_bag_from_discard: ER-TILE-6/-7, every tile of the discard pile into the bag. */
void er_refill_bag_from_discard(Game *g, const Scn *s)
{
    (void)s;
    if (g->discard) {
        g->bag |= g->discard;
        g->discard = 0;
    }
}

/* tiles.draw_from_bag: one tile at random from the bag to player's screen; 0 if none is left.
 * ER-TILE-6: an empty bag first takes back the discard pile; ER-TILE-7: a draw that empties the
 * bag refills it from the discard pile at once. The draw is bag.pop(below(len(bag))). */
int er_draw_from_bag(Game *g, const Scn *s, int player)
{
    if (!g->bag) {
        er_refill_bag_from_discard(g, s);
        if (!g->bag)
            return 0;   /* ER-INI-3: bag and discard both empty */
    }
    int tile = kth_bit(g->bag, er_rng_below(&g->rng, er_popcount64(g->bag)));
    g->bag &= ~(1ULL << tile);
    g->hands[player] |= 1ULL << tile;
    if (!g->bag)
        er_refill_bag_from_discard(g, s);
    return 1;
}

/* tiles.draw_up_to: ER-INI-1..3, draw until player holds limit tiles or none is left to draw. */
void er_draw_up_to(Game *g, const Scn *s, int player, int limit)
{
    while (er_popcount64(g->hands[player]) < limit && er_draw_from_bag(g, s, player)) {
    }
}

/* tiles.take_from_discard: ER-ACT-10, the chosen tile from the discard pile behind the screen. */
void er_take_from_discard(Game *g, const Scn *s, int player, int tile)
{
    (void)s;
    g->discard &= ~(1ULL << tile);
    g->hands[player] |= 1ULL << tile;
}

/* tiles.discard_from_hand: ER-FIN-5 / ER-TILE-8, a tile from the screen to the discard pile. */
void er_discard_from_hand(Game *g, const Scn *s, int player, int tile)
{
    (void)s;
    g->hands[player] &= ~(1ULL << tile);
    g->discard |= 1ULL << tile;
}

/* tiles.assign_from_hand: ER-ORD-1, take tile from the screen (the caller places it). */
void er_assign_from_hand(Game *g, const Scn *s, int player, int tile)
{
    (void)s;
    g->hands[player] &= ~(1ULL << tile);
}
