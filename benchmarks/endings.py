"""How a player's games end, seat by seat: the game's own summary of each end, counted.

Run: ``python benchmarks/endings.py --player checkpoints/earth_reborn_ppo.pt --opponent heuristic
[--env NAME] [--games 200] [--seed 20261201] [--show 1]``. The player (a checkpoint, played
greedily, or a bot name) sits in each seat in turn against the opponent for ``--games`` seeded
games; every finished game is summarised by its match (``match.summary()``, e.g. ``draw (MP
3-3)``), and the table counts the summaries per seat, most frequent first. ``--show K`` prints the
final position (``env.unwrapped.get_state()``, JSON) of the first K games of each seat's most
frequent ending, to see what such a game looks like at its end. Why: a win rate says how often a
seat loses; this says how, which is where a learner's weakness shows.
"""

from __future__ import annotations

import argparse
import collections
import json

from reborn_env.bots.batched import SlotBot, batched_bot
from reborn_env.core import registry


def make_player(spec: str, env_name: str, seed: int):
    """A checkpoint (greedy) or a bot of the game's, as an ordinary Bot."""
    if spec.endswith(".pt"):
        from reborn_env.policies.bot import PolicyBot

        return PolicyBot(spec, greedy=True, seed=seed)
    return SlotBot(batched_bot(env_name, spec, [seed]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", choices=registry.names(), default=registry.default_name())
    parser.add_argument("--player", required=True, help="a checkpoint (.pt) or a bot name")
    parser.add_argument("--opponent", default="heuristic", help="a bot name or a checkpoint")
    parser.add_argument("--games", type=int, default=200, help="games per seat (default 200)")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--show", type=int, default=0, help="final positions to print per seat")
    args = parser.parse_args()
    spec = registry.get(args.env)
    env = spec.make_env()
    player = make_player(args.player, args.env, args.seed)
    opponent = make_player(args.opponent, args.env, args.seed + 1)
    for seat in env.possible_agents:
        endings: collections.Counter[str] = collections.Counter()
        examples: dict[str, list[dict]] = collections.defaultdict(list)
        for g in range(args.games):
            env.reset(seed=args.seed + g)
            player.reset()
            opponent.reset()
            for agent in env.agent_iter():
                obs, _, termination, truncation, _ = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                bot = player if agent == seat else opponent
                env.step(bot.act(obs["observation"], obs["action_mask"]))
            summary = env.unwrapped.match.summary()
            endings[summary] += 1
            if len(examples[summary]) < args.show:
                examples[summary].append(env.unwrapped.get_state())
        print(f"\n{args.player} as {seat} vs {args.opponent}: {args.games} games")
        print("| ending | games | share |")
        print("| --- | ---: | ---: |")
        for summary, count in endings.most_common():
            print(f"| {summary} | {count} | {100 * count / args.games:.1f}% |")
        top = endings.most_common(1)[0][0]
        for position in examples[top]:
            print(f"final position of a game that ended '{top}':")
            print(json.dumps(position))


if __name__ == "__main__":
    main()
