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

**Turn.** Each turn: Initiative phase (draw up to 5 tiles, turn-1 redraw, CP income, initiative,
optional duel), Activity phase (rounds alternate: activate or reactivate a character, draw a tile
from the bag for 1 CP, pick one from the discard for 2 CP, or pass; two passes in a row end it),
Final phase (victory check, tiles to the discard, CP to the bank, keep at most 5 tiles). An
activation is several small decisions, each one AEC step of the same agent (design.md); the
selected agent is whoever must decide, so the same agent may act many times in a row.

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

**Observation** (egocentric, scaled to [0, 1]; `observation_layout(scenario)` in
`reborn_env.games.earth_reborn.observation` lists the blocks): my faction; turn, phase and decision;
whether I decide, hold the initiative, am active; pass count; both CP pools (public, ER-HID-4) and
MP; hand sizes, bag and discard counts; who redrew; duel bids once revealed; **my** hand's tiles;
the discard's tiles only at my own `CHOOSE_DISCARD`; doors, terminals, cache; the round in progress
(activated character, MVP, selected section, target, CP); the last dice rolled; and per character:
mine or not, alive, square, facing, side, wounds, engaged, CP spent and left, cards, weapon,
terminals tried, and the assigned tiles with the CP on each section. The opponent's tiles, the
bag's contents and the generator never enter it (ER-HID-2, -6, -12).

**Arguments.** `render_mode` (`"human"`, `"ansi"`, `"rgb_array"`), `scenario` (bundled name or a
`.toml` path), `illegal_action` (`"raise"` or `"penalize"`), `mp_shaping` (reward per net MP
gained, default 0), `max_steps` (truncation as a draw, default 5000, ER-ENV-9).

**Positions.** `env.unwrapped.get_state()` returns the full position as JSON-ready data and
`set_state(d)` restores it after validating it (docs/position_format.md);
`reset(options={"position": d})` starts a game there.

**Versions.** v0 (2026-11): first release, rules spec version 1 (Vault Raid).
"""

from __future__ import annotations

from .games.earth_reborn.env import env, raw_env

__all__ = ["env", "raw_env"]
