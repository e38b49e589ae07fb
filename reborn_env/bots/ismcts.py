"""Information-set Monte Carlo tree search: a search bot that never sees the hidden state.

What: single-observer ISMCTS (Cowling, Powley and Whitehouse 2012, "Information Set Monte Carlo
Tree Search", IEEE TCIAIG 4(2)). Each simulation deals a determinization of the bot's public view
(``core.public_view``: the game's own hooks deal the unseen part anew, consistently with what the
seat sees), descends one tree over the observer's information sets (a node is the sequence of
actions from the root), choosing among the actions legal in this determinization with
availability counts (a child's exploration term counts the simulations in which it could have
been chosen, not its parent's visits), adds one node, plays the game out with a rollout policy
and backs up the rules' result (+1 / 0 / -1 per seat, the game's ``final_rewards``: ER-WIN-3 in
Earth Reborn, a draw at the step limit, ER-ENV-9): each node adds the result of the seat that
chose its action. Rollouts are not cut: they play to the rules' end, so no evaluation function
is guessed, unless ``value=FILE`` replaces them by a trained value head. The move played is
the root's most visited action.

Why these choices: the determinization comes from the public view only, so two games that differ
only in what the seat may not see give the same search (a hidden-information test checks it);
the rollout policy is the game's heuristic bot where it has one (``rollout=heuristic``: the
compiled batch where the game registers one, ~8 us a decision, else the Python bot) and uniform
random play otherwise. The
tree's choice is PUCT with the heuristic's move as its prior (``prior=heuristic``, the default
where the game has a heuristic): Earth Reborn's decisions are small steps whose values differ by
less than a few dozen noisy rollouts can tell, and plain UCB1 (``prior=none``), which tries every
action alike, then plays little better than at random (it lost 3 of 4 games and drew one against
the heuristic at 50 simulations a move, where the prior won 3 of 4). The matches are the game's
own (the compiled core when built). A decision with one legal action is played at once.

Spec (``load_bot("ismcts:sims=200,rollout=random")``): ``sims`` (simulations a move), ``ms``
(milliseconds a move; with both, the first reached ends the search; neither: ``ms=1000``),
``rollout`` (``heuristic`` or ``random``), ``prior`` (``heuristic``, ``none`` or a policy file
that ``load_bot`` plays and whose ``probabilities`` become the prior, e.g. the shipped
checkpoint; rollout and prior default to heuristic where the game has one), ``c`` (the
exploration constant, default 0.7 for results in [-1, 1]) and ``value`` (a policy checkpoint
whose value head judges each new leaf instead of a rollout: the value of the position for the
seat to move there, clipped to [-1, 1], and its negation for the other seat; ``rollout`` then
has no meaning and is refused beside it). Rollouts skip forced moves (one legal
action) without asking the policy, which makes them ~1.5x faster on Earth Reborn. A policy
prior is asked once a node, in the first determinization that reaches it, and kept: the
network's forward pass is the dearest part of a simulation's step down the tree.

Measured (``benchmarks/bench_ismcts.py --bot ismcts:ms=150 --games 10 --seed 20261201``, on a
shared 2-core machine): against the heuristic, 10 wins, 5 draws, 5 losses in 20 games (50%,
95% Wilson [29.9, 70.1]; NORAD 6/4/0, Salemite 4/1/5), 6.6 searched decisions and 910
simulations a second. The heuristic itself wins 5/7/8 (25%) of the same deals, 29% of 400 (41%
are draws): the search turns draws into wins, but an 80% win rate at 1 s a move is not shown.
With the shipped policy as its prior and a larger exploration constant
(``ismcts:ms=250,prior=checkpoints/earth_reborn_ppo.pt,c=2.5``) it won 178 of 200 games against
the heuristic at 250 ms a move (89.0%, 95% Wilson [83.9, 92.6]; docs/measurements.md).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core import registry
from ..core.contract import RUNNING, Match, Rules
from ..core.public_view import PublicView, dealer, require_views
from .batched import batched_bot
from .loading import CHECKPOINT_SUFFIXES, ONNX_SUFFIXES, TORCHSCRIPT_SUFFIXES, load_bot

NAME = "ismcts"
ROLLOUTS = ("heuristic", "random")
PRIORS = ("heuristic", "none")
POLICY = ONNX_SUFFIXES + TORCHSCRIPT_SUFFIXES + CHECKPOINT_SUFFIXES  # prior=FILE (load_bot's)
PRIOR_EPS = 0.25  # the prior's share spread evenly over the legal actions
DEFAULT_MS = 1000.0
DEFAULT_C = 0.7
OPTIONS = {
    "sims": "simulations a move, an integer >= 1",
    "ms": "milliseconds a move, a number > 0",
    "rollout": f"the rollout policy, one of {', '.join(ROLLOUTS)}",
    "prior": f"the tree's prior: {', '.join(PRIORS)} or a policy file ({', '.join(POLICY)})",
    "c": "the exploration constant, a number >= 0",
    "value": f"a policy checkpoint ({', '.join(CHECKPOINT_SUFFIXES)}) whose value head judges "
    "each new leaf instead of a rollout",
}


@dataclass(frozen=True)
class Settings:
    """The search's budget (``sims`` and/or ``ms`` a move), rollout policy and exploration."""

    sims: int | None = None
    ms: float | None = None
    rollout: str | None = None  # None: heuristic where the game has one, else random
    prior: str | None = None  # None: heuristic where the game has one, else none (plain UCB)
    c: float = DEFAULT_C
    value: str | None = None  # a policy checkpoint: its value head instead of rollouts


def parse_options(text: str) -> Settings:
    """The settings ``key=value,...`` names (the part of a spec after ``ismcts:``); ValueError
    naming the option that is wrong and what is allowed."""
    values: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if key not in OPTIONS or not sep or not value:
            allowed = "; ".join(f"{k}: {v}" for k, v in OPTIONS.items())
            raise ValueError(f"ismcts option {item!r}: expected key=value with one of: {allowed}")
        if key in values:
            raise ValueError(f"ismcts option {key!r} is given twice")
        values[key] = value
    sims = _number(values, "sims", int, 1) if "sims" in values else None
    ms = _number(values, "ms", float, 0, strict=True) if "ms" in values else None
    rollout = values.get("rollout")
    if rollout is not None and rollout not in ROLLOUTS:
        raise ValueError(f"ismcts option rollout={rollout!r}: one of {', '.join(ROLLOUTS)}")
    prior = values.get("prior")
    if prior is not None and prior not in PRIORS and Path(prior).suffix.lower() not in POLICY:
        raise ValueError(f"ismcts option prior={prior!r}: {OPTIONS['prior']}")
    c = _number(values, "c", float, 0) if "c" in values else DEFAULT_C
    value = values.get("value")
    if value is not None and Path(value).suffix.lower() not in CHECKPOINT_SUFFIXES:
        raise ValueError(f"ismcts option value={value!r}: {OPTIONS['value']}")
    if value is not None and rollout is not None:
        raise ValueError("ismcts options rollout and value: a leaf is judged by one of them")
    if sims is None and ms is None:
        ms = DEFAULT_MS
    return Settings(sims, ms, rollout, prior, c, value)


def _number(values: dict[str, str], key: str, kind: type, low: float, strict: bool = False) -> Any:
    """``values[key]`` as ``kind`` (int or float), finite and >= ``low`` (> when ``strict``)."""
    try:
        number = kind(values[key])
    except ValueError:
        number = None
    if number is None or not math.isfinite(number) or number < low or (strict and number == low):
        raise ValueError(f"ismcts option {key}={values[key]!r}: {OPTIONS[key]}")
    return number


def from_spec(options: str, env_name: str, seed: int | None = None) -> ISMCTSBot:
    """The bot ``ismcts[:options]`` names for ``env_name`` (``reborn_env.bots.loading``)."""
    return ISMCTSBot(env_name, parse_options(options), seed)


class _Node:
    """An information set of the observer: its children by action, and for the action that led
    here the seat that chose it, its visits, its summed result and its availability count."""

    __slots__ = ("children", "seat", "visits", "total", "available", "policy")

    def __init__(self, seat: int) -> None:
        self.children: dict[int, _Node] = {}
        self.seat = seat
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.policy: np.ndarray | None = None  # prior=FILE's probabilities here, on first use


class ISMCTSBot:
    """Single-observer ISMCTS for ``game`` (a registered game with public views), seeded by
    ``seed``; it plays through :meth:`act_public` (``base.SeesPublicView``)."""

    def __init__(
        self, game: str, settings: Settings | None = None, seed: int | None = None
    ) -> None:
        require_views(game, f"the {NAME} bot")
        self.game = game
        self.settings = settings if settings is not None else parse_options("")
        spec = registry.get(game)
        rollout = self.settings.rollout or ("heuristic" if "heuristic" in spec.bots else "random")
        if rollout == "heuristic" and "heuristic" not in spec.bots:
            raise ValueError(f"ismcts rollout=heuristic: {game} has no heuristic bot; use random")
        self.rollout = rollout
        prior = self.settings.prior or ("heuristic" if "heuristic" in spec.bots else "none")
        if prior == "heuristic" and "heuristic" not in spec.bots:
            raise ValueError(f"ismcts prior=heuristic: {game} has no heuristic bot; use none")
        self.prior = prior != "none"
        self.rng = np.random.default_rng(seed)
        self._prior_policy = None if prior in PRIORS else _policy_prior(prior, game, seed)
        self._value = None if self.settings.value is None else _value_net(self.settings.value, game)
        self._policies: dict[str | None, Any] = {}  # the heuristic's one-slot batch per scenario
        self._choose: Any = None  # the heuristic's move, ``choose(match, writes)``, per search
        self._seen: Any = None  # the seat to move's observation and mask, per search
        self.last_visits: dict[int, int] = {}  # the root's visits of the last search, by action
        self.last_simulations = 0

    def reset(self) -> None:
        """Nothing to forget: each move searches anew (the generator runs on)."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Refused: a search needs the public view, which every driver gives (act_public)."""
        raise ValueError(
            f"the {NAME} bot plans on the game's public view: play it through a driver that "
            "gives it (arena.play_match, PerSlotBots, the bot server, terminal play)"
        )

    def act_public(self, view: PublicView, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The root's most visited action after a search within the budget; the only legal
        action at once."""
        legal = np.flatnonzero(action_mask).tolist()
        if not legal:
            raise ValueError("the action mask has no legal action")
        if len(legal) == 1:
            self.last_visits, self.last_simulations = {legal[0]: 0}, 0
            return int(legal[0])
        visits = self.search(view)
        return max(legal, key=lambda a: (visits.get(a, 0), -a))

    def search(self, view: PublicView) -> dict[int, int]:
        """Run the simulations the budget allows from ``view``; the root's visits by action."""
        deal = dealer(view)
        self._seen = self._seen_by(view.rules)
        heuristic = self.rollout == "heuristic" or (self.prior and self._prior_policy is None)
        self._choose = self._heuristic(view.rules) if heuristic else None
        settings = self.settings
        deadline = None if settings.ms is None else time.perf_counter() + settings.ms / 1000
        root = _Node(view.seat)
        done = 0
        while settings.sims is None or done < settings.sims:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._simulate(root, deal(self.rng))
            done += 1
        self.last_simulations = done
        self.last_visits = {a: child.visits for a, child in root.children.items()}
        return self.last_visits

    def _simulate(self, root: _Node, match: Match) -> None:
        """Select and expand in ``match`` (one determinization), judge the leaf (a rollout, or
        the value head with ``value=FILE``), back up."""
        path = self._descend_puct(root, match) if self.prior else self._descend_ucb(root, match)
        if match.status() != RUNNING:
            result = match.final_rewards()
        elif self._value is not None:
            result = self._judge(match)
        else:
            result = self._play_out(match)
        for node in path:
            node.visits += 1
            node.total += result[node.seat]

    def _descend_ucb(self, node: _Node, match: Match) -> list[_Node]:
        """UCB1 with availability down to a node with an untried legal action, which is tried
        (at random) and added: the nodes passed through, the new one last."""
        path, c = [], self.settings.c
        while match.status() == RUNNING:
            legal = match.legal_actions()
            children = node.children
            untried = [a for a in legal if a not in children]
            for a in legal:
                if a in children:
                    children[a].available += 1
            if untried:
                action = untried[int(self.rng.integers(len(untried)))]
                child = children[action] = _Node(int(match.to_move()))
                child.available = 1
                match.apply(action)
                path.append(child)
                break
            action = max(legal, key=lambda a: _ucb(children[a], c))
            node = children[action]
            match.apply(action)
            path.append(node)
        return path

    def _descend_puct(self, node: _Node, match: Match) -> list[_Node]:
        """PUCT (Silver et al. 2017) with availability counts for ``N``; an unvisited action
        is worth the mean of the visited ones (first-play urgency: with a fixed 0, in a losing
        position every untried action outranks the prior's choice until all were tried). Down to
        the first node not visited before."""
        path, c = [], self.settings.c
        writes = _writes_arrays(match)
        while match.status() == RUNNING:
            legal = match.legal_actions()
            children, seat = node.children, int(match.to_move())
            priors = self._priors(match, legal, writes, node)
            untried = _mean_value(children.get(a) for a in legal)
            best, best_score = None, -math.inf
            for a, p in zip(legal, priors, strict=True):
                child = children.get(a)
                if child is None:
                    child = children[a] = _Node(seat)
                child.available += 1
                q = child.total / child.visits if child.visits else untried
                score = q + c * p * math.sqrt(child.available) / (1 + child.visits)
                if score > best_score:
                    best, best_score = child, score
                    action = a
            match.apply(action)
            path.append(best)
            if best.visits == 0:
                break
            node = best
        return path

    def _priors(self, match: Match, legal: Sequence[int], writes: bool, node: _Node) -> list[float]:
        """``P`` of each legal action at ``node``: ``PRIOR_EPS`` spread evenly, the rest on the
        action the game's heuristic would play (``prior=heuristic``) or as a policy file's
        probabilities (``prior=FILE``, its ``probabilities(observation, mask)``), asked once a
        node, in the first determinization that reaches it, and kept for the later ones (they
        differ there in hidden tiles and chance; the kept answer is the policy's in one of
        them)."""
        spread = PRIOR_EPS / len(legal)
        if len(legal) == 1:
            return [1.0]
        if self._prior_policy is None:
            favoured = self._choose(match, writes)
            return [spread + (1.0 - PRIOR_EPS if a == favoured else 0.0) for a in legal]
        if node.policy is None:
            obs, mask = self._seen(match, writes)
            node.policy = np.asarray(self._prior_policy.probabilities(obs[0], mask[0]))
        probabilities = node.policy[legal]
        total = float(probabilities.sum())
        share = probabilities / total if total > 0 else np.full(len(legal), 1.0 / len(legal))
        return (spread + (1.0 - PRIOR_EPS) * share).tolist()

    def _play_out(self, match: Match) -> Sequence[float]:
        """The rollout policy plays ``match`` to the rules' end; its final rewards per seat."""
        if self.rollout == "random":
            while match.status() == RUNNING:
                legal = match.legal_actions()
                match.apply(legal[int(self.rng.integers(len(legal)))])
            return match.final_rewards()
        choose, writes = self._choose, _writes_arrays(match)
        while match.status() == RUNNING:
            legal = match.legal_actions()
            match.apply(legal[0] if len(legal) == 1 else choose(match, writes))
        return match.final_rewards()

    def _judge(self, match: Match) -> list[float]:
        """The value head's estimate for the seat to move at the leaf, clipped to [-1, 1], and
        its negation for the other seat (a two-seat zero-sum result, as ``final_rewards``)."""
        import torch

        obs, mask = self._seen(match, _writes_arrays(match))
        with torch.inference_mode():
            _, value = self._value(torch.from_numpy(obs), torch.from_numpy(mask != 0))
        v = max(-1.0, min(1.0, float(value[0])))
        seat = int(match.to_move())
        return [v if s == seat else -v for s in range(2)]

    def _heuristic(self, rules: Rules) -> Callable[[Match, bool], int]:
        """``choose(match, writes)``: the game's heuristic's action for the seat to move (one
        slot of its batch for the rules' scenario, compiled where the game registers one; its
        tie-breaks run on)."""
        scenario = getattr(getattr(rules, "scenario", None), "name", None)
        policy = self._policies.get(scenario)
        if policy is None:
            where = {"scenario": scenario} if scenario else {}
            seeds = [int(self.rng.integers(2**63))]
            policy = self._policies[scenario] = batched_bot(self.game, "heuristic", seeds, **where)
        seen = self._seen
        slot = np.zeros(1, dtype=np.int64)

        def choose(match: Match, writes: bool) -> int:
            obs, mask = seen(match, writes)
            return int(policy.act(slot, obs, mask)[0])

        return choose

    def _seen_by(self, rules: Rules) -> Callable[[Match, bool], tuple[np.ndarray, np.ndarray]]:
        """``seen(match, writes)``: the observation and mask of the seat to move, as rows of
        buffers kept for the search (written by the match where it writes arrays)."""
        obs = np.zeros((1, rules.obs_size), dtype=np.float32)
        mask = np.zeros((1, rules.n_actions), dtype=np.int8)

        def seen(match: Match, writes: bool) -> tuple[np.ndarray, np.ndarray]:
            seat = int(match.to_move())
            mask.fill(0)
            if writes:  # the match writes them (contract.WritesArrays)
                match.observe_into(seat, obs[0], mask[0])
            else:
                obs[0] = match.observe(seat)
                mask[0, list(match.legal_actions())] = 1
            return obs, mask

        return seen


def _policy_prior(path: str, game: str, seed: int | None) -> Any:
    """The policy file ``path`` as a bot whose ``probabilities`` are the tree's prior."""
    bot = load_bot(path, game, seed=seed)
    if not callable(getattr(bot, "probabilities", None)):
        raise ValueError(
            f"ismcts prior={path!r}: that bot gives no probabilities to use as a prior"
        )
    return bot


def _value_net(path: str, game: str) -> Any:
    """The network of the policy checkpoint ``path`` (``value=FILE``), for its value head."""
    bot = load_bot(path, game)
    net = getattr(bot, "model", None)
    if net is None:
        raise ValueError(f"ismcts value={path!r}: that file gives no network with a value head")
    return net


def _writes_arrays(match: Match) -> bool:
    """Whether ``match`` writes its observation and mask (``contract.WritesArrays``), read as
    the attribute: ``isinstance`` of the runtime Protocol costs ~30 us."""
    return callable(getattr(match, "observe_into", None))


def _mean_value(children: Iterable[_Node | None]) -> float:
    """The mean result of the visited ones among ``children`` for the seat choosing between
    them; 0 (a draw) when none was visited."""
    total = visits = 0.0
    for child in children:
        if child is not None:
            total += child.total
            visits += child.visits
    return total / visits if visits else 0.0


def _ucb(node: _Node, c: float) -> float:
    """UCB1 with availability: mean result + c * sqrt(ln(availability) / visits)."""
    return node.total / node.visits + c * math.sqrt(math.log(node.available) / node.visits)
