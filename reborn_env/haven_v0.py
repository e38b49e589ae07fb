"""haven (v0): a cooperative Gloomhaven-style tactical card game for two agents, PettingZoo AEC.

```python
from reborn_env import haven_v0
env = haven_v0.env(render_mode="ansi")
env.reset(seed=42)
for agent in env.agent_iter():
    obs, reward, termination, truncation, info = env.last()
    mask = obs["action_mask"]
    action = None if termination or truncation else env.action_space(agent).sample(mask)
    env.step(action)
```

| | |
| --- | --- |
| Agents | `"bulwark"` (index 0, melee tank), `"conjurer"` (index 1, ranged caster, summoner) |
| Action space | `Discrete(87)`, one integer per answer to a prompt of spec section 16.2 |
| | one more `HEX` per cell on a larger map: `Discrete(123)` on Frost Keep's 11 x 9 |
| Observation | `Dict(observation=Box(0, 1, (2132,), float32), action_mask=Box(0, 1, (87,)))` |
| | on Mire Crossing `(2408,)`, on Walled Camp `(2574,)`, on Frost Keep `(3798,)` |
| Rewards | shared: +1 win, -1 loss, 0 truncated, at the end (HV-API-6); optional shaping |
| Import | `from reborn_env import haven_v0` |

**Round.** Both characters secretly pick two ability cards (the first one leads and gives the
initiative) or declare a long rest; `bulwark` answers first, then `conjurer`, and neither sees the
other's picks before the reveal (HV-API-3, HV-SEL-3). Monsters draw their ability cards, then every
figure takes its turn in initiative order: a character executes the top box of one played card and
the bottom box of the other (printed, or as the default Attack 2 / Move 2), using items in the three
item windows; monsters and summons are run by the engine. Cleanup offers short rests. Each decision
is one AEC step of the agent it belongs to, so the same agent may act many times in a row; with
`auto_forced=True` a prompt with a single legal answer is answered by the engine (HV-API-4).
Scenario "Raider Camp": win when no monster is left (at the end of that round), lose when both
characters are exhausted.

**Actions** (`env.unwrapped.action_name(a)` gives the name, `action_from_name` the integer), on
the 9 x 7 grid of the first three scenarios. A map of `n` cells (HV-MAP-1) has `HEX` 0 to `n - 1`
and every other kind shifted by `n - 63` (`CARD(k)` = `n + k`, and so on):

| ids | actions |
| --- | --- |
| 0-62 | `HEX(col,row)`, cell `9 * row + col`: destination, target, recipient, summon hex |
| 63-72 | `CARD(k)`: class card `k` in table order (B01 = 0 ... B09 = 8; C01 = 0 ... C08 = 7) |
| 73-80 | `BOX(s,h,m)` = `73 + 4s + 2h + m`: `s` lead/other, `h` top/bottom, `m` printed/default |
| 81 | `LONG_REST` (selection) |
| 82, 83 | `ITEM(0)`, `ITEM(1)`: the character's first / second item |
| 84, 85 | `YES`, `NO` (NO also skips an ability, stops targeting, ends the turn, suffers damage) |
| 86 | `LOSE_TWO_DISCARDS` (negate damage, then two `PICK_DISCARD` prompts) |

**Action mask.** `int8`, exactly the legal answers to the pending prompt (16.4) for the selected
agent; all zeros for the other agent. An illegal action raises `IllegalActionError` naming the
prompt and the legal actions and leaves the game unchanged (HV-API-5); with
`illegal_action="penalize"` the game ends instead and the offender gets -1 (PettingZoo's way).

**Observation** (egocentric, scaled to [0, 1]). `layout_for(scenario)` in
`reborn_env.games.haven.observation` names every block (offset, shape, labels, scale);
`layout.view(obs)` reads them by name without copying: `view["me"]["hand"]`,
`view["board"][cell].label("figure")`, `view["me"].amount("hp")`, `view["prompt"].label("kind")`.
The blocks in order, with their widths in Raider Camp:

| block | width | contents |
| --- | --- | --- |
| `agent` | 2 | which character I am |
| `board` | 63 x 26 | one record per cell (below) |
| `round` | 10 | `round`, `phase`, `outcome`, `win_met` |
| `elements` | 6 x 3 | inert / waning / strong, per element |
| `pending_infusions` | 6 | elements infused this turn |
| `turn_sequence` | 8 x 8 | the revealed sequence, per slot: `entity`, `initiative`, `done` |
| `monster_decks` | 2 x 15 | per monster type: `current` card, ability `discard`, `draw` pile size |
| `monster_modifiers` | 15 | the monster modifier deck: `draw`, `discard`, `shuffle_due` |
| `me` | 115 | **my** character block (below) |
| `other` | 115 | the **other** character's public block (below) |
| `prompt` | 119 | the pending prompt (below) |

A cell's record: `terrain`, `coins`, `treasure`, the `figure` standing there (kind), `mine`,
`elite`, `number`, `hp`, `max_hp`, `shield` and `retaliate` totals, 8 `conditions`, `acted`.

The prompt: `kind`, `whose`, `card` and `half` being executed, `ability`, `value` (move points,
attack or heal value, pending damage), `element`, `targets` already chosen, and `rest_card` (the
short-rest card, for its owner only).

A character block: `on_map`, `exhausted`, `hp`, `max_hp`, `gold`, `hand_size`, `discard_count`,
`lost_count`, `active_count`, `long_rest`, `acted`, `sits_out`, `initiative`, `revealed`, `shield`,
`retaliate`, its `conditions`, the card bitmasks `hand`, `lead`, `second`, `played`, `discard`,
`lost`, `active`, its `items` (ready / spent / consumed) and its attack `modifiers` deck
composition. In `other` the hand is its size only, the picks appear once revealed, and the piles
are reduced to counts with `hide_other_piles=True`. The other's hand contents and unrevealed picks
never enter the observation (HV-SEL-3).

**Info.** Empty by default, so that every value a trainer's buffer stores is a number, an array
or a string. With `event_feed=True`, `infos[agent]["events"]`: the event dicts (`{"type": ...,
**data}`) logged since that agent's previous step; the other character's selection events are
withheld until the reveal (HV-API-8).

**Termination.** On win or loss every agent is terminated, on the round cap every agent is truncated
(HV-API-7); exhausted characters stay in `agents`, never selected, until then (HV-EXH-4).

**Arguments.** `render_mode` (`"human"`, `"ansi"`, `"rgb_array"`), `scenario` (bundled name or a
`.toml` path, default `"raider_camp"`; `"mire_crossing"`, spec section 22, adds traps, hazardous
and difficult terrain, flying and jumping moves and area attacks; `"walled_camp"`, section 24,
splits Raider Camp with thin walls, section 23, adds targets to two area attacks, makes two
Moves teleports, section 25, and draws icy lanes, section 26; `"frost_keep"`, section 27, plays
Walled Camp's content on a larger map, 11 x 9),
`illegal_action` (`"raise"` or `"penalize"`), `event_feed` (False; see Info), `backend`
(`"fast"`: the compiled kernels of `games/haven/fast/`; `"python"`: the reference rules; None, the
default: the compiled kernels when they are built, and `REBORN_ENV_BACKEND` sets it), and the
config keys of 16.8:
`allow_damage_negation` (True), `auto_forced` (True), `hide_other_piles` (False), `reward_shaping`
(False; +0.02 per monster HP lost, -0.02 per character HP lost, shared), `max_rounds` (30),
`reveal_second_card_at_turn` (False).

**Positions and fixtures.** `env.unwrapped.get_state()` returns the position as JSON-ready data and
`set_state(d)` restores it; `reset(options={"position": d})` starts a game there, and
`reset(options={"fixture": f})` sets up a test fixture (HV-API-10).
`copy.deepcopy(env)` and `pickle` copy the env at any point and the copy plays on exactly;
`reset()` after `reset(seed=s)` continues the seeded generator (Gymnasium's `np_random`).

**Versions.** v0: first release, rules spec haven.md v1.0 (Raider Camp).
"""

from __future__ import annotations

from .games.haven.env import env, raw_env

__all__ = ["env", "raw_env"]
