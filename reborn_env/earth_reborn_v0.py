"""Earth Reborn (v0): two-player tactical skirmish with hidden order tiles, as a PettingZoo AEC env.

```python
from reborn_env import earth_reborn_v0
env = earth_reborn_v0.env(render_mode="ansi")
env.reset(seed=42)
for agent in env.agent_iter():
    obs, reward, termination, truncation, info = env.last()
    mask = obs["action_mask"]
    action = None if termination or truncation else env.action_space(agent).sample(mask)
    env.step(action)
```

| | |
| --- | --- |
| Agents | `"norad"`, `"salemite"` (Vault Raid, spec section 19) |
| Action space | `Discrete(203)`, one integer per decision of spec section 18 |
| Observation | `Dict(observation=Box(0, 1, (954,), float32), action_mask=Box(0, 1, (203,)))` |
| Rewards | +1 win, -1 loss, 0 draw, at the end (ER-WIN-3); optional `mp_shaping` |
| Import | `from reborn_env import earth_reborn_v0` |
| Batched | `earth_reborn_v0.vector_env(num_envs, seed, num_threads)`, on the compiled core |

**Turn.** Each turn: Initiative phase (draw up to 5 tiles, turn-1 redraw, CP income, initiative,
optional duel), Activity phase (rounds alternate: activate or reactivate a character, draw a tile
from the bag for 1 CP, pick one from the discard for 2 CP, or pass; two passes in a row end it),
Final phase (victory check, tiles to the discard, CP to the bank, keep at most 5 tiles). An
activation is several small decisions, each one AEC step of the same agent (docs/architecture.md);
the selected agent is whoever must decide, so the same agent may act many times in a row.

**Actions** (`env.unwrapped.action_name(a)` gives the name, `action_from_name` the integer):

| ids | actions |
| --- | --- |
| 0-1 | `MULLIGAN_KEEP`, `MULLIGAN_REDRAW` (turn 1 only, ER-INI-4) |
| 2-42 | `DUEL_BID(0..40)` (ER-INI-8, when the scenario enables the duel) |
| 43-47 / 48-52 | `ACTIVATE(c)` / `REACTIVATE(c)` for bolter, vasquez, jack_saw, deeler, zombie |
| 53, 54, 55 | `DRAW_BAG`, `PICK_DISCARD`, `PASS` |
| 56-79 | `CHOOSE_DISCARD(T01..T24)` |
| 80-103 | `ASSIGN(T01..T24)` |
| 104-119 / 120-135 | `MOVE_CP(s)` / `SELECT_ORDER(s)`, section `s = 4 * slot + index` (ER-ENV-6) |
| 136, 137-140, 141 | `RELOAD`, `SAW_DOOR(N/E/S/W)`, `END_ROUND` |
| 142-153 | `STEP(d)`, `OPEN(d)`, `CLOSE(d)` |
| 154-156 | `GIVE_CARD`, `TAKE_CARD`, `PICKUP_CARD` |
| 157-160 | `END_MOVE(N/E/S/W)` (final facing) |
| 161-164 / 165-169 | `CHOOSE_TARGET(d)` (close combat) / `CHOOSE_TARGET(c)` (shoot) |
| 170-173 / 174-177 | `CHOOSE_CP(1..4)` / `CHOOSE_AIM(0..3)` |
| 178-201, 202 | `DISCARD_TILE(T01..T24)`, `KEEP_HAND` (Final phase) |

**Action mask.** `int8`, exactly the engine's legal set for the decision in progress (ER-ENV-10);
all zeros for the agent not deciding. An illegal action raises `IllegalActionError` naming the
decision and the legal choices and leaves the game unchanged (ER-ENV-8); with
`illegal_action="penalize"` the game ends instead and the offender gets -1 (PettingZoo's way).

**Observation** (egocentric, scaled to [0, 1]). `layout_for(scenario)` in
`reborn_env.games.earth_reborn.observation` names every block (offset, shape, labels, scale);
`layout.view(obs)` reads them by name without copying: `view["hand"]`, `view.label("decision")`,
`view["cp"].amount("mine")`, `view["characters"][4]["wounds"]`. The blocks in order, with their
widths in Vault Raid:

| block | width | contents |
| --- | --- | --- |
| `faction` | 2 | my faction (one-hot) |
| `turn` | 6 | the turn (one-hot) |
| `phase` | 4 | initiative, activity, final, over |
| `decision` | 12 | the decision in progress |
| `flags` | 4 | `i_decide`, `i_hold_initiative`, `i_am_active`, `passes` |
| `cp` | 2 | CP pools, `mine` and `opponent` (public, ER-HID-4), / 40 |
| `mp` | 2 | mission points, `mine` and `opponent`, / 20 |
| `tile_counts` | 4 | `my_hand`, `opponent_hand`, `bag`, `discard` (counts only, ER-HID-3, -6) |
| `redrew` | 2 | the turn-1 redraw, `mine` and `opponent` (ER-HID-9) |
| `bids` | 2 | duel bids, `mine`, and `opponent` once both are chosen (ER-HID-10) |
| `hand` | 24 | **my** hand's tiles (multi-hot, ER-HID-1) |
| `discard` | 24 | the discard's tiles, only at my own `CHOOSE_DISCARD` (ER-HID-7) |
| `doors` | 5 x 3 | closed / open / destroyed, per door |
| `hacked` | 2 | terminals hacked |
| `caches` | 1 | caches still full |
| `round` | 6 | `reactivation`, `acted`, `decided`, `mvp` (/ 20), `transferred`, `order_cp` (/ 4) |
| `section` | 16 | the section of the order being built (ER-ENV-6) |
| `target_direction` | 4 | the close-combat target's direction |
| `target_character` | 5 | the shot's target |
| `last_roll` | 12 | dice per face Y1..Y6, B1..B6 of the last roll, / 6 (ER-HID-11) |
| `characters` | 5 x 161 | one record per character (below) |

A character's record: `mine`, `alive`, `wounded` (card side), `wounds` (/ its LP), `engaged`,
`cp_spent` and `cp_left` (/ its MAXCP), `cards` (/ 2), `has_weapon`, `weapon_ready`, `activated`,
then `x`, `y`, `facing` (one-hots), `tried` (terminals tried this turn) and `sections`: 16 records
(`4 * slot + index`) of `type`, `max`, `cp` (/ 4) and `present`, the assigned tiles as on the
table. The opponent's tiles, the bag's contents and the generator never enter it (ER-HID-2, -6,
-12).

**Arguments.** `render_mode` (`"human"`, `"ansi"`, `"rgb_array"`), `scenario` (bundled name or a
`.toml` path), `illegal_action` (`"raise"` or `"penalize"`), `mp_shaping` (reward per net MP
gained, default 0), `max_steps` (truncation as a draw, default 5000, ER-ENV-9), `layout`
(`"scenario"`, the default, or `"universal"`, below).

**One layout for every map** (`layout="universal"`, spec section 23.2, ER-UNI-1..7). The
observation is `Box(0, 1, (9428,))` and the action space `Discrete(356)` on every scenario: each
block above padded to a 16 x 16 board, 12 turns, 32 doors, 16 terminals and caches, 16
characters and 64 tiles (slot `k` is the scenario's `k`-th character or tile), plus a `map` block
of what the scenario fixes (squares, walls, door, terminal and cache sites, character cards, tile
sections); `universal.UNIVERSAL_LAYOUT` names the blocks. Turns align on the last (ER-UNI-5). A
padded action is never legal. `scenario` may then be a list, `generated:<first>..<last>` naming
a range of generated maps: the game of seed `s` plays the `s % n`-th scenario, and
`env.unwrapped.scenario` is None. The scripted bots play it too
(`batched_bot(..., layout="universal")`).

**Positions.** `env.unwrapped.get_state()` returns the full position as JSON-ready data and
`set_state(d)` restores it after validating it (docs/position_format.md);
`reset(options={"position": d})` starts a game there.
`copy.deepcopy(env)` and `pickle` copy the env at any point and the copy plays on exactly;
`reset()` after `reset(seed=s)` continues the seeded generator (Gymnasium's `np_random`).

**Backends.** `env(backend="fast")` plays on the compiled core (`games/earth_reborn/fast/`, C),
`backend="python"` on the reference engine; the default is the core when it is built, else the
reference with one warning (`REBORN_ENV_BACKEND=python` sets the default). Both are the same
environment, byte for byte: observations, masks, rewards, positions, error messages.
`env.unwrapped.game` is the engine's own `GameState`; reading it hands the match over to the
reference engine, so that the object stays live.

**Vector env.** `vector_env(num_envs=256, seed=0, num_threads=1, backend=None, **options)`
(options as `env()`: `scenario`, `mp_shaping`, `max_steps`, `layout`) steps `num_envs` games in
one call:

```python
venv = earth_reborn_v0.vector_env(num_envs=256, seed=0)
obs, mask, agent = venv.reset()      # float32 [N, 954], int8 [N, 203], int8 [N] seat to move
obs, mask, agent, rewards, terminated, truncated = venv.step(actions)   # actions int [N]
venv.get_state(i); venv.set_state(i, position)      # the position format above
```

`rewards` float32 [N, 2] are this step's, per seat, as the AEC env gives them (MP shaping, then
ER-WIN-3 at the end); `terminated` / `truncated` bool [N] (ER-ENV-9). A finished game is replaced
in the same step by the slot's next game, whose first decision `obs`, `mask` and `agent` then
show. The arrays are allocated once and rewritten by every call. Slot `i` draws its games' seeds
from SplitMix64 of the `i`-th output of SplitMix64(`seed`), so results depend on neither
`num_threads` nor the other slots. An illegal action raises `IllegalActionError` naming the slot,
the decision and the legal actions, and no game moves (every action is checked first);
`set_state` validates as `env.unwrapped.set_state` does. Without the core it runs on the
reference engine (`fast.reference.ReferenceGames`), the same numbers, slower. With
`layout="universal"` it is a `MixedVectorEnv`: slot `i` plays the `i % n`-th of the `n`
scenarios for the whole run, each scenario's slots one compiled vector, all in one batch of
universal observations, masks and actions (ER-UNI-6).

**Versions.** v0 (2026-11): first release, rules spec version 1 (Vault Raid). 2026-12: the
compiled core and the vector env; the environment's behaviour is unchanged. 2026-12: more
scenarios (section 23), generated maps and the `layout="universal"` option; the default layout
and every default behaviour are unchanged.
"""

from __future__ import annotations

from .games.earth_reborn.env import env, raw_env
from .games.earth_reborn.fast.vector import VectorEnv
from .games.earth_reborn.vectors import vector_env

__all__ = ["VectorEnv", "env", "raw_env", "vector_env"]
