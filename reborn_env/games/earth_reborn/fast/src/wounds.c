/* Wounds, flipping to the Wounded side, death, elimination (rules/wounds.py, ER-WND-1..6,
 * ER-WIN-2, ER-SCN-10). */
#include "core.h"

/* wounds.wound: ER-WND-1/-2, n wounds on c one at a time, flipping or killing as they land. */
void er_wound(Game *g, const Scn *s, int c, int n)
{
    ErChar *ch = &g->chars[c];
    const ErCharSpec *spec = &s->chars[c];
    for (int i = 0; i < n; i++) {
        if (ch->dead)
            return;
        ch->wounds++;
        if (!ch->wounded && ch->wounds >= spec->healthy.lp) {
            ch->wounded = 1;   /* ER-WND-1: flip, the Wounded line applies at once (ER-WND-4) */
            ch->wounds = 0;
        } else if (ch->wounded && ch->wounds >= spec->wounded.lp) {
            er_kill(g, s, c);
        }
    }
}

/* wounds.kill: ER-WND-3, the figure leaves the map and a dead marker (holding its cards) takes
 * its square; ER-SCN-10, the opposing faction scores its kill MP. */
void er_kill(Game *g, const Scn *s, int c)
{
    ErChar *ch = &g->chars[c];
    ch->dead = 1;
    ch->engaged = 0;
    int enemy = 1 - s->chars[c].faction;
    g->mp[enemy] += s->mission.kill_mp[enemy];
}

/* wounds.end_game: record the result (0/1 winning player, -1 draw); no more decisions. */
void er_end_game(Game *g, int winner)
{
    g->winner = (int8_t)winner;
    g->phase = ER_OVER;
    g->decision = ER_GAME_OVER;
    g->char_ = -1;
}

/* wounds.check_elimination: ER-WIN-2, a faction with no living character loses at once; both
 * at once is a draw. */
int er_check_elimination(Game *g, const Scn *s)
{
    int alive0 = er_living(g, s, 0) != 0, alive1 = er_living(g, s, 1) != 0;
    if (alive0 && alive1)
        return 0;
    er_end_game(g, !alive0 && !alive1 ? ER_DRAW : (alive0 ? 0 : 1));
    return 1;
}
