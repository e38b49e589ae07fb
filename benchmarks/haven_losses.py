"""How haven teams lose: the round of each loss, the monsters still standing and how each
character was exhausted (by cards, HV-EXH-1, or by damage, HV-EXH-2).

Run: ``python benchmarks/haven_losses.py [--env NAME] [--games 500] [--seed 20261129]
[--checkpoint PATH]``; ``--env`` is a cooperative registered game with haven's rules state
(default the first in name order, as in ``benchmarks/haven_win_rates.py``).
Why: the win rate (``benchmarks/haven_win_rates.py``, same seeds and bots, greedy) says how often
a team loses, not why; this table backs the model card's account of it
(``checkpoints/haven_ppo.md``). It reads the final game state of each seeded game of the
scripted team and of the checkpoint's greedy policy (default the game's shipped policy).
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field

from team_args import team_args

ROUND_BANDS = ((0, 9, "<=9"), (10, 12, "10-12"), (13, 99, "13+"))


@dataclass
class Losses:
    """What a team's lost games ended like."""

    games: int = 0
    wins: int = 0
    rounds: Counter[str] = field(default_factory=Counter)  # loss round band -> losses
    monsters_left: Counter[int] = field(default_factory=Counter)
    monster_hp_left: list[int] = field(default_factory=list)
    exhausted: Counter[str] = field(default_factory=Counter)  # "cards" / "damage"

    def row(self, name: str) -> str:
        losses = self.games - self.wins
        bands = " / ".join(str(self.rounds[band]) for *_, band in ROUND_BANDS)
        left = " / ".join(str(self.monsters_left[n]) for n in range(1, 6))
        hp = sum(self.monster_hp_left) / max(1, losses)
        how = f"{self.exhausted['cards']} / {self.exhausted['damage']}"
        return f"{name:<18} {losses:>6}  {bands:<14} {left:<20} {hp:>7.1f}  {how}"


def team_losses(
    spec: str, env_name: str, games: int, seed: int, env_kwargs: dict | None = None
) -> Losses:
    """Play ``games`` seeded games of ``env_name`` (built with ``env_kwargs``) with ``spec`` (a
    bot spec) in every seat, greedily."""
    from reborn_env.bots.loading import load_bot
    from training.common.envs import make_env

    env = make_env(env_name, **(env_kwargs or {}))
    bots = {
        a: load_bot(spec, env_name, seed + k, True, (env_kwargs or {}).get("scenario"))
        for k, a in enumerate(env.possible_agents)
    }
    out = Losses()
    for i in range(games):
        env.reset(seed=seed + i)
        for bot in bots.values():
            bot.reset()
        for agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            action = None
            if not (termination or truncation):
                action = bots[agent].act(obs["observation"], obs["action_mask"])
            env.step(action)
        state = env.unwrapped.game.state
        out.games += 1
        if state.outcome == "win":
            out.wins += 1
            continue
        out.rounds.update(band for low, high, band in ROUND_BANDS if low <= state.round <= high)
        standing = [m for m in state.monsters if m.cell is not None]
        out.monsters_left[len(standing)] += 1
        out.monster_hp_left.append(sum(m.hp for m in standing))
        out.exhausted.update("damage" if c.hp < 1 else "cards" for c in state.characters)
    env.close()
    return out


def main(argv: list[str] | None = None) -> int:
    args = team_args(__doc__, 500, argv, need_policy=True)
    import torch

    torch.set_num_threads(1)
    print(f"{args.env}, {args.games} games per team from seed {args.seed}, greedy")
    print(
        f"{'team':<18} {'losses':>6}  {'rounds <=9/10-12/13+':<14} {'monsters left 1/2/3/4/5':<20} "
        f"{'HP left':>7}  exhausted by cards / damage"
    )
    for name, spec in (("scripted", "heuristic"), ("learned (greedy)", args.checkpoint)):
        losses = team_losses(spec, args.env, args.games, args.seed, args.env_kwargs)
        print(losses.row(name), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
