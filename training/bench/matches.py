"""Seeded matches played in the game vector: hundreds of games at once, each seat's moves batched.

Why: an evaluation of a thousand games per seat, one decision at a time through the AEC env,
takes most of an hour; in the vector (``GameSpec.make_vector_env``) every step asks each player
once for all the games where it is to move (``reborn_env.bots.batched``: a policy's forward pass,
the compiled heuristic; a search bot also gets each game's public view, ``core.public_view``).
The games are those of the vector from ``seed`` (slot ``i``'s games come from its own seed
stream, see ``reborn_env.core.aec_vector``), so a match is reproducible; the first ``games``
games to start in each seating are the ones counted.

A game's result is read from its last step's rewards: the winner gets +1 and the loser -1
(ER-WIN-3 and its like), so player A won when its reward beats its opponent's by at least 1 (MP
shaping moves both by far less), lost when the opponent's beats its own, and a game cut at
``max_steps`` or level is a draw.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from reborn_env.bots.arena import MatchResult, Record
from reborn_env.bots.batched import BatchedBot
from training.common.driver import Driver, GameEnd, Seating, first_come
from training.common.envs import make_vector_env
from training.common.progress_bar import ProgressBar

MakePlayer = Callable[[int], BatchedBot]
"""``make(n)``: a player for ``n`` slots (its own seeds)."""


def outcome(rewards: np.ndarray, seat: int, terminated: bool) -> float:
    """+1 / 0 / -1: the result for ``seat`` of a game whose last step gave ``rewards``."""
    margin = float(rewards[seat] - rewards[1 - seat])
    if not terminated or abs(margin) < 1.0:
        return 0.0
    return 1.0 if margin > 0 else -1.0


def play_vector_match(
    env_name: str,
    env_kwargs: dict[str, Any],
    make_a: MakePlayer,
    make_b: MakePlayer,
    games: int,
    seed: int,
    num_envs: int = 256,
    label: str | None = None,
    seats: tuple[int, ...] = (0, 1),
) -> MatchResult:
    """Player A against player B, ``games`` games with A in each seat of ``seats`` (both by
    default: 2 * ``games`` in all); ``label`` shows a progress bar."""
    probe = make_vector_env(env_name, 1, seed, **env_kwargs)
    agents = list(probe.agents)
    if len(agents) != 2:
        raise ValueError(f"{env_name}: a match needs two seats, the game has {len(agents)}")
    result = MatchResult({agent: Record() for agent in agents})
    bar = ProgressBar(label, len(seats) * games) if label else None
    for k, seat in enumerate(seats):
        _play_seating(env_name, env_kwargs, (make_a, make_b), seat, games, seed, num_envs,
                      result.seats[agents[seat]], bar, k * games)  # fmt: skip
    if bar:
        bar.close()
    return result


def _play_seating(
    env_name: str,
    env_kwargs: dict[str, Any],
    makers: tuple[MakePlayer, MakePlayer],
    seat: int,
    games: int,
    seed: int,
    num_envs: int,
    record: Record,
    bar: ProgressBar | None,
    shown: int,
) -> None:
    """``games`` games with player A in ``seat``, into ``record``."""
    n = min(num_envs, games)
    venv = make_vector_env(env_name, n, seed + seat, **env_kwargs)
    player_a, player_b = makers[0](n), makers[1](n)
    by_seat = Seating((0, 1))
    driver = Driver(venv, (player_a, player_b) if seat == 0 else (player_b, player_a),
                    lambda slot, game: by_seat, first_come(games))  # fmt: skip

    def count(end: GameEnd) -> None:
        record.add(outcome(end.rewards, seat, end.terminated))

    driver.run(count, (lambda finished: bar.update(shown + finished)) if bar else None)
    venv.close()


def player(
    spec: Any,
    env_name: str,
    seed: int,
    greedy: bool = False,
    env_kwargs: dict[str, Any] | None = None,
) -> MakePlayer:
    """``make(n)`` for the player ``spec`` names: a policy network or checkpoint payload (a
    :class:`~reborn_env.policies.bot.PolicyBatch`, sampled or ``greedy``), a checkpoint path, or a
    bot of the game's (``"random"``, ``"heuristic"``: compiled where the game has it); slot
    ``i``'s bot is seeded ``seed + i`` and plays the ``scenario`` of ``env_kwargs``, if any, in
    its ``layout``."""
    from reborn_env.bots.batched import batched_bot
    from reborn_env.policies.bot import PolicyBatch

    if not isinstance(spec, str) or spec.endswith(".pt"):
        return lambda n: PolicyBatch(spec, greedy, seed)
    options = {k: v for k, v in (env_kwargs or {}).items() if k in ("scenario", "layout")}
    return lambda n: batched_bot(env_name, spec, [seed + i for i in range(n)], **options)
