"""Play in the terminal with or against a bot, or replay a saved game log.

Run: ``python -m reborn_env.frontends.play [--env NAME] [--scenario NAME] [--seat AGENT]
[--opponent SPEC] [--greedy] [--seed S] [--save-log FILE]``, or ``python -m
reborn_env.frontends.play --replay FILE [--step | --no-page]`` (in a terminal a replay waits for
Enter between moves, as a pager does; ``--no-page`` prints it all). ``--env`` is any registered
game (reborn_env.core.registry; default the first bundled one in name order,
``registry.default_name()``); the scenario and your seat default to the ones the game registers;
the bot is made for that scenario (a policy whose sizes do not fit it is refused);
``--greedy`` makes a policy bot play its likeliest move. In a competitive game the bot is your
opponent; in a cooperative one it plays the rest of your team. Why: the quickest way for a person
to try the rules, check a bot's play by hand, and keep a game (reborn_env.frontends.game_log) that
replays exactly.

At each of your decisions it shows the board (the public ansi render), your hand with what each
tile or card does (the game's board view: sections and costs, top and bottom texts) and the legal
actions; you answer with a number from the list, ``#N`` for action index N (a bare number is
always a list number, so the two never clash), or an action name (any case). ``?`` shows help;
``q``, end of input or Ctrl-C quits. A bad entry is refused with a message and asked again: the
game is never lost to a typo. Input is read with ``input()``, so a script can pipe moves in.

A bad command line (an unknown scenario or seat, a bot that does not load, a seed outside
0..2**63-1, a log that cannot be written or replayed) prints one line ``error: ...`` on stderr
and exits with status 2, as argparse does for its own usage errors (:func:`fail`).
"""

from __future__ import annotations

import argparse
import secrets
import sys
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from reborn_env.bots import Bot, decide
from reborn_env.bots.loading import load_bot
from reborn_env.core import registry
from reborn_env.core.files import check_writable_dir
from reborn_env.core.game_env import GameEnv
from reborn_env.core.public_view import env_view
from reborn_env.frontends.game_log import (
    GameLogError,
    load_log,
    log_env,
    new_log,
    record_move,
    replay,
    save_log,
)
from reborn_env.frontends.scenario_bots import misfit

USAGE_ERROR = 2  # exit status of a user error, argparse's for a bad command line
MAX_SEED = 2**63 - 1  # every bot's generator (numpy, torch) takes it
COLUMNS = 3
COLUMN_WIDTH = 30
HELP = """\
Answer with one of:
  3          the action numbered 3 in the list
  #141       the action with index 141 (the number after '#' in the list)
  STEP(N)    the action's name (any case, spaces ignored)
  ?          this help
  q          quit (the game log is saved if --save-log was given)
The board key is printed under the board; your hand is hidden from the opponent."""


class Quit(Exception):
    """The player asked to stop (``q``, end of input or Ctrl-C)."""


def fail(message: object) -> int:
    """Print ``error: <message>`` as one line on stderr (line breaks folded); returns 2."""
    print("error: " + " ".join(str(message).split()), file=sys.stderr)
    return USAGE_ERROR


# --- Reading the player's choice ----------------------------------------------------------------


def legal_actions(mask: np.ndarray) -> list[int]:
    return [int(a) for a in np.flatnonzero(mask)]


def parse_choice(text: str, legal: list[int], env: GameEnv) -> int:
    """The action ``text`` names among ``legal``; ValueError says why it names none."""
    entry = text.strip()
    if entry.isdigit():
        number = int(entry)
        if not 1 <= number <= len(legal):
            raise ValueError(f"{number} is not in the list; choose 1..{len(legal)}")
        return legal[number - 1]
    if entry.startswith("#") and entry[1:].isdigit():
        action = int(entry[1:])
        if action not in legal:
            raise ValueError(f"action #{action} is not legal now; the list shows the legal ones")
        return action
    by_name = {env.action_name(a).lower(): a for a in legal}
    key = entry.replace(" ", "").lower()
    if key in by_name:
        return by_name[key]
    raise ValueError(f"{entry!r} is not a number from the list, a legal #index or a legal name")


def format_choices(legal: list[int], env: GameEnv) -> str:
    """The legal actions numbered from 1, with their index, in columns."""
    cells = [f"{i:>3}. {env.action_name(a)} #{a}" for i, a in enumerate(legal, 1)]
    rows = [cells[i : i + COLUMNS] for i in range(0, len(cells), COLUMNS)]
    return "\n".join("".join(cell.ljust(COLUMN_WIDTH) for cell in row).rstrip() for row in rows)


def hand_details(env: GameEnv, seat: str, legal: list[int]) -> list[str]:
    """What each held tile or card does (sections and costs, top and bottom texts), from the
    game's board view (``GameSpec.board_view``: only what ``seat`` may see); none without one."""
    view = registry.get(env.unwrapped.rules.name).board()
    if view is None:
        return []
    items = view(env.unwrapped.match, env.possible_agents.index(seat), legal)["hand"]["items"]
    lines = []
    for item in items:
        action = f" [{item['action']}]" if item.get("action") else ""
        lines.append(f"  {item['title']}{action}: " + "; ".join(item["lines"]))
    return lines


def read_line(prompt: str) -> str:
    """A line of input; end of input or Ctrl-C quits."""
    try:
        return input(prompt)
    except (EOFError, KeyboardInterrupt):
        print()
        raise Quit from None


def ask_human(env: GameEnv, seat: str, mask: np.ndarray) -> int:
    """Show the position and the choices, and read until the player gives a legal action."""
    legal = legal_actions(mask)
    print(env.render())
    hand = env.unwrapped.match.hand(env.possible_agents.index(seat))
    print(f"your hand ({seat}): {' '.join(hand) or '-'}")
    for line in hand_details(env, seat, legal):
        print(line)
    print(format_choices(legal, env))
    while True:
        entry = read_line(f"{seat}> ").strip()
        if entry.lower() in ("q", "quit"):
            raise Quit
        if entry == "?":
            print(HELP)
            print(format_choices(legal, env))
            continue
        try:
            return parse_choice(entry, legal, env)
        except ValueError as err:
            print(f"not accepted: {err} ('?' for help)")


# --- The game -----------------------------------------------------------------------------------


def is_over(env: GameEnv) -> bool:
    return any(env.terminations.values()) or any(env.truncations.values())


def returns_of(env: GameEnv) -> dict[str, float]:
    """Each agent's reward for how the finished game ended, as the game gives it (the match's
    final rewards: shaping, which play never turns on, is left out)."""
    final = env.unwrapped.match.final_rewards()
    return {agent: float(final[i]) for i, agent in enumerate(env.possible_agents)}


def describe_result(env: GameEnv) -> str:
    """How the finished game ended, in the game's own words (the match's summary)."""
    return env.unwrapped.match.summary()


def bot_role(spec: registry.GameSpec) -> str:
    """What the bot is to the player: a partner in a cooperative game, else an opponent."""
    return "with" if spec.facts.cooperative else "against"


def play_game(env: GameEnv, seat: str, bot: Bot, log: dict[str, Any]) -> None:
    """Alternate the player and the bot until the game ends; Quit propagates."""
    while not is_over(env):
        agent = env.agent_selection
        seen = env.observe(agent)
        if agent == seat:
            action = ask_human(env, seat, seen["action_mask"])
            who = f"{agent} (you)"
        else:
            view = partial(env_view, env, agent)  # built only for a bot that asks (search)
            action = decide(bot, seen["observation"], seen["action_mask"], view)
            who = f"{agent} (bot)"
        print(f"{who} plays {env.action_name(action)}")
        record_move(log, env, agent, action)
        env.step(action)


def play(args: argparse.Namespace) -> int:
    game = registry.get(args.env)
    scenario = args.scenario or game.default_scenario
    try:
        env = game.make_env(render_mode="ansi", scenario=scenario)
    except ValueError as err:  # ScenarioError: no such bundled scenario, or a bad file
        return fail(f"--scenario {scenario!r}: {err}")
    seat = args.seat or game.seat or env.possible_agents[0]
    if seat not in env.possible_agents:
        return fail(
            f"--seat {seat!r} is not an agent of {args.env}; choose one of "
            f"{', '.join(env.possible_agents)}"
        )
    seed = secrets.randbits(31) if args.seed is None else args.seed
    try:
        bot = load_bot(
            args.opponent, env_name=args.env, seed=seed, greedy=args.greedy, scenario=scenario
        )
    except (ValueError, OSError) as err:
        return fail(f"cannot load the bot {args.opponent!r}: {err}")
    bot_seat = next((a for a in env.possible_agents if a != seat), seat)
    problem = misfit(bot, env, bot_seat, scenario)
    if problem:
        return fail(f"the bot {args.opponent!r} cannot play {scenario!r}: {problem}")
    if args.save_log:
        problem = log_target_problem(args.save_log)
        if problem:
            return fail(f"--save-log {args.save_log}: {problem}")
    env.reset(seed=seed)
    bot.reset()
    log = new_log(env, args.env)
    print(
        f"{game.title}, {scenario}, seed {seed}: you play {seat} {bot_role(game)} "
        f"{args.opponent}. '?' for help, 'q' to quit."
    )
    try:
        play_game(env, seat, bot, log)
    except Quit:
        print("quit")
    else:
        print(env.render())
        print(f"Result: {describe_result(env)}")
        log["result"] = returns_of(env)
    if args.save_log:
        try:
            save_log(log, args.save_log)
        except OSError as err:
            return fail(f"--save-log {args.save_log}: cannot write it: {err.strerror or err}")
        print(f"game log saved to {args.save_log} ({len(log['moves'])} moves)")
    return 0


def log_target_problem(path: str) -> str | None:
    """Why a game log cannot be saved at ``path`` (checked before the game), or None."""
    target = Path(path)
    if target.is_dir():
        return "is a folder; name a file"
    try:
        check_writable_dir(target.parent)
    except OSError as err:
        return f"cannot write in {target.parent}: {err.strerror or err}"
    return None


# --- Replay -------------------------------------------------------------------------------------


def replay_file(path: str, step: bool) -> int:
    """Print every position and move of a saved log; with ``step``, wait for Enter between moves."""
    try:
        log = load_log(path)
        env = log_env(log, "ansi")
        for i, move in replay(log, env):
            print(f"--- position after {i} moves ---")
            print(env.render())
            if move is None:
                break
            print(f"move {i + 1}: {move['agent']} plays {move['name']}")
            if step:
                read_line("[Enter] next move ")
    except Quit:
        return 0
    except (GameLogError, ValueError, KeyError, TypeError) as err:
        return fail(f"cannot replay {path}: {err}")
    result = log["result"]
    returns = ", ".join(f"{agent} {value:+g}" for agent, value in (result or {}).items())
    print(f"result: {returns or 'unfinished'}")
    return 0


def pages(args: argparse.Namespace) -> bool:
    """Whether a replay waits for Enter between moves: with ``--step``, and by default when it
    runs in a terminal (as a pager does), unless ``--no-page``."""
    if args.no_page:
        return False
    return args.step or (sys.stdin.isatty() and sys.stdout.isatty())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--env",
        choices=registry.names(),
        default=registry.default_name(),
        help="the game (default %(default)s)",
    )
    parser.add_argument("--scenario", help="scenario name or .toml path (default: the game's)")
    parser.add_argument("--seat", help="your agent (default: the seat the game names)")
    parser.add_argument(
        "--opponent",
        default="heuristic",
        help="the bot (your opponent, or in a cooperative game your partner): random, heuristic, "
        "ismcts[:ms=1000,...] (the search bot) or a .pt/.ts/.onnx file",
    )
    parser.add_argument("--seed", type=int, default=None, help="game and bot seed (default: new)")
    parser.add_argument(
        "--greedy", action="store_true", help="a policy bot plays its likeliest move, no sampling"
    )
    parser.add_argument("--save-log", metavar="FILE", help="save the game log here")
    parser.add_argument("--replay", metavar="FILE", help="replay a saved game log instead")
    parser.add_argument(
        "--step",
        action="store_true",
        help="with --replay: Enter between moves (the default when run in a terminal)",
    )
    parser.add_argument(
        "--no-page", action="store_true", help="with --replay: print every move without waiting"
    )
    args = parser.parse_args(argv)
    if args.seed is not None and not 0 <= args.seed <= MAX_SEED:
        parser.error(f"--seed must be in 0..2**63-1, got {args.seed}")
    if args.replay:
        return replay_file(args.replay, pages(args))
    return play(args)


if __name__ == "__main__":
    sys.exit(main())
