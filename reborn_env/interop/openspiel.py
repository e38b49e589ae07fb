"""Every registered game as an OpenSpiel Python game: importing this module registers them.

Why: OpenSpiel's algorithms (ISMCTS, CFR-style tools, its test harness) take a ``pyspiel.Game``;
this bridge gives them each game of :func:`reborn_env.core.registry.names` without a line of game
code, reading what OpenSpiel declares from the game's :class:`~reborn_env.core.registry.GameSpec`
and its :class:`~reborn_env.core.facts.GameFacts`. Install OpenSpiel first (``pip install
open_spiel``; it is not one of reborn_env's mandatory dependencies).

Usage (one game of Earth Reborn, ISMCTS for seat 0 against random play; about 10 s)::

    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import reborn_env.interop.openspiel as bridge  # registers python_reborn_<game name>

    game = pyspiel.load_game("python_reborn_earth_reborn_v0", {"seed": 7})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0)),
        uct_c=1.4,
        max_simulations=20,
        use_observation_string=True,  # the key of a node: see "Information" below
        random_state=np.random.RandomState(0),
    )
    while not state.is_terminal():
        if state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    print(state.returns(), "truncated" if state.is_truncated() else "ended by the rules")

Names and parameters. A game registers as ``python_reborn_<name>`` (:func:`short_name`:
``python_reborn_earth_reborn_v0``, ``python_reborn_haven_v0``). Its parameters are ``seed``
(default -1; OpenSpiel's integer parameters are 32-bit) and, for a game with scenarios,
``scenario`` (default the game's default scenario):
``pyspiel.load_game("python_reborn_haven_v0(scenario=mire_crossing,seed=3)")``. The environment's
other options (shaping, step limits) keep their defaults.

What OpenSpiel users must know:

- **Sampled chance.** Deals, shuffles and dice are drawn inside the rules from the match's seeded
  generator, so the game declares its facts' chance, ``SAMPLED_STOCHASTIC`` (``DETERMINISTIC``
  for a game that draws nothing), with no chance nodes and ``max_chance_outcomes`` 0: algorithms
  that enumerate chance outcomes (exact CFR, best response) do not apply. Each
  ``new_initial_state()`` is a new game: with ``seed >= 0`` the game's seed stream (a numpy
  generator seeded with it) gives each state's seed in turn, so a run is repeatable; with -1
  every state draws a fresh random seed. A state draws its seed when first used, so ``clone()``
  never consumes one.
- **Information.** The game declares its facts' information (``IMPERFECT_INFORMATION`` for the
  games shipped here). The observation tensor is the game's float32 observation of that player (the
  PettingZoo env's ``observation``), its string the observation's non-zero entries by name.
  ``state.observation(player)`` gives the same as a numpy array, much faster: OpenSpiel's
  ``observation_tensor()`` builds a Python list and, to learn the tensor's size, a throwaway
  initial state at every call (which deals a game, and so takes a seed from the stream). It
  is what the player sees now, not a perfect-recall information state (the sequence of its past
  observations and actions), so ``provides_information_state_*`` are False and a perfect-recall
  observer is refused. ISMCTS must run with ``use_observation_string=True``: nodes then merge
  histories that look alike now.
- **Resampling.** ``state.resample_from_infostate(player, sampler)`` deals a state consistent
  with ``player``'s public view through the game's determinizer (``GameSpec.public_view``,
  ``GameSpec.determinizer``: the same hooks as the project's own ISMCTS bot); the seed of the
  deal comes from ``sampler``. The new state's observation for ``player`` equals the original's;
  its ``history()`` is empty (it starts where the view was taken). A game without a
  determinizer refuses with ValueError.
- **Truncation.** OpenSpiel has no truncation: a game that reaches its step or round limit is
  terminal with the game's rewards for a truncated game (a draw: 0 each where the games define
  it so); ``state.is_truncated()`` tells the two ends apart. ``max_game_length`` is the game's
  bound on the decisions of a game of that configuration (``GameFacts.max_game_length_of``, else
  ``GameFacts.max_game_length``); a game with no known bound is not registered (a warning says
  so).
- **Rewards.** ``TERMINAL``: 0 until the end, then the game's final rewards; the utility is the
  facts' kind, ``ZERO_SUM`` for opponents, ``IDENTICAL`` for a team (one shared reward), and
  ``min_utility``/``max_utility`` their range.
- **Cloning.** ``clone()`` is the match's own deep copy (every game's match copies exactly and
  independently; the rules are shared), which costs far more than a C++ game's clone
  (``benchmarks/bench_openspiel.py`` measures it per game beside a position round trip), so
  algorithms that clone at every node are slow on these games. (The matches' infos, such as
  haven's event feed, are not part of an OpenSpiel state.)
- **Serializing.** OpenSpiel serializes a sampled-stochastic game's state with the game's
  random-generator state, which a Python game cannot give (``GetRNGState`` is C++ only), so
  ``pickle`` and ``serialize_game_and_state`` fail (``serialize=False`` in ``random_sim_test``);
  save ``state.position()`` and restore it with ``game.state_at(position)``.
- ``str(state)`` is the game's text picture (the env's ``ansi`` render), the public board, not
  the hidden part; ``state.position()`` is the whole game.
"""

from __future__ import annotations

import copy
import secrets
import warnings
from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np
import pyspiel

from ..core import registry
from ..core.contract import RUNNING, TRUNCATED, Match, Rules
from ..core.facts import Chance, Information, Kind
from ..core.public_view import dealer, require_views, view_of
from ..core.registry import GameSpec

PREFIX = "python_reborn_"
RANDOM_SEED = -1  # the seed parameter's value for a fresh random seed per state
SEED_RANGE = 2**63  # each state's seed is drawn from [0, SEED_RANGE)

# each of a game's facts as OpenSpiel declares it
UTILITIES = {
    Kind.ZERO_SUM: pyspiel.GameType.Utility.ZERO_SUM,
    Kind.IDENTICAL: pyspiel.GameType.Utility.IDENTICAL,
}
CHANCE_MODES = {
    Chance.DETERMINISTIC: pyspiel.GameType.ChanceMode.DETERMINISTIC,
    Chance.SAMPLED_STOCHASTIC: pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
}
INFORMATION = {
    Information.PERFECT: pyspiel.GameType.Information.PERFECT_INFORMATION,
    Information.IMPERFECT: pyspiel.GameType.Information.IMPERFECT_INFORMATION,
}

_registered: dict[str, str] = {}  # game name -> short name


def short_name(game_name: str) -> str:
    """The OpenSpiel short name of the registered game ``game_name``."""
    return f"{PREFIX}{game_name}"


def registered() -> dict[str, str]:
    """The games this bridge has registered with OpenSpiel: game name -> short name."""
    return dict(_registered)


@cache
def _rules(game_name: str, scenario: str) -> Rules:
    """The rules of ``game_name`` (its ``scenario``; "" for a game without scenarios), built once:
    OpenSpiel loads a game for each episode in some wrappers."""
    spec = registry.get(game_name)
    env = spec.make_env(scenario=scenario) if scenario else spec.make_env()
    return env.unwrapped.rules


def game_type(spec: GameSpec) -> pyspiel.GameType:
    """What OpenSpiel declares of the game ``spec`` describes (its default configuration gives
    the number of seats)."""
    players = len(_rules(spec.name, spec.default_scenario).agents)
    parameters: dict[str, Any] = {"seed": RANDOM_SEED}
    if spec.scenarios:
        parameters["scenario"] = spec.default_scenario
    facts = spec.facts
    return pyspiel.GameType(
        short_name=short_name(spec.name),
        long_name=f"reborn_env {spec.title} ({spec.name})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=CHANCE_MODES[facts.chance],
        information=INFORMATION[facts.information],
        utility=UTILITIES[facts.kind],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def game_info(spec: GameSpec, rules: Rules) -> pyspiel.GameInfo:
    """The sizes of the game ``spec`` describes as ``rules`` configure it; ValueError when the
    game knows no bound on its length (OpenSpiel's ``max_game_length``)."""
    bound = spec.decision_bound(rules)
    if bound < 1:
        raise ValueError(
            f"{spec.name} declares no bound on the decisions of a game (GameFacts.max_game_length "
            "or max_game_length_of), which OpenSpiel needs as max_game_length"
        )
    facts = spec.facts
    return pyspiel.GameInfo(
        num_distinct_actions=rules.n_actions,
        max_chance_outcomes=0,
        num_players=len(rules.agents),
        min_utility=facts.min_utility,
        max_utility=facts.max_utility,
        utility_sum=0.0 if facts.kind is Kind.ZERO_SUM else None,
        max_game_length=bound,
    )


class RebornGame(pyspiel.Game):
    """One registered game, configured by OpenSpiel parameters (``seed``, ``scenario``); each
    game is a subclass that sets :attr:`spec` (:func:`register`)."""

    spec: GameSpec

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        spec = self.spec
        kind = game_type(spec)
        given = dict(params or {})
        known = kind.parameter_specification
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise ValueError(f"{spec.name}: unknown parameters {unknown}; known: {sorted(known)}")
        values = {**known, **given}
        seed, scenario = values["seed"], values.get("scenario", "")
        if isinstance(seed, bool) or not isinstance(seed, int) or not -1 <= seed < SEED_RANGE:
            raise ValueError(f"{spec.name}: seed must be -1 (random) or a seed >= 0, got {seed!r}")
        if spec.scenarios and scenario not in spec.scenario_names():
            raise ValueError(
                f"{spec.name}: scenario {scenario!r} is not one of "
                f"{', '.join(spec.scenario_names())}"
            )
        rules = _rules(spec.name, scenario)
        super().__init__(kind, game_info(spec, rules), values)
        self.rules = rules
        self._seeds = None if seed == RANDOM_SEED else np.random.default_rng(seed)
        self.observation_names = _entry_names(rules)  # a name for each float observed

    def new_initial_state(self) -> RebornState:
        """A new game (its seed drawn when the state is first used)."""
        return RebornState(self)

    def state_at(self, position: Mapping[str, Any]) -> RebornState:
        """The state of the game ``position`` holds (``state.position()``, the game's position
        format); the rules' PositionError naming the field if it is not one. Its ``history()``
        starts empty."""
        return RebornState(self, self.rules.from_position(position))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> RebornObserver:
        """The observer of what a player sees now (see the module's "Information")."""
        return RebornObserver(self, iig_obs_type, params)

    def next_seed(self) -> int:
        """The next state's seed: the seed stream's next, or a fresh random one."""
        if self._seeds is None:
            return secrets.randbelow(SEED_RANGE)
        return int(self._seeds.integers(SEED_RANGE))


class _HeldMatch:
    """A state's match, dealt on first use, deep-copied through its position (``clone()``)."""

    __slots__ = ("game", "_match")

    def __init__(self, game: RebornGame, match: Match | None) -> None:
        self.game = game
        self._match = match

    @property
    def match(self) -> Match:
        if self._match is None:
            self._match = self.game.rules.new_match(self.game.next_seed(), {})
        return self._match

    def __deepcopy__(self, memo: dict[int, Any]) -> _HeldMatch:
        """The same game, by the match's own deep copy (every match copies exactly; the rules
        are shared, not copied)."""
        rules = self.game.rules
        return _HeldMatch(self.game, copy.deepcopy(self.match, {id(rules): rules}))


class RebornState(pyspiel.State):
    """One game in progress: the game's match behind OpenSpiel's state API."""

    def __init__(self, game: RebornGame, match: Match | None = None) -> None:
        super().__init__(game)
        self._held = _HeldMatch(game, match)

    def current_player(self) -> int:
        """The seat to move, or ``pyspiel.PlayerId.TERMINAL`` once the game ended."""
        match = self._held.match
        if match.status() != RUNNING:
            return pyspiel.PlayerId.TERMINAL
        return int(match.to_move())

    def _legal_actions(self, player: int) -> list[int]:
        """The legal actions of the seat to move, sorted (OpenSpiel asks only for that seat)."""
        return [int(action) for action in self._held.match.legal_actions()]

    def _apply_action(self, action: int) -> None:
        """Play ``action``; an illegal one raises IllegalActionError naming the legal actions,
        the game unchanged."""
        self._held.match.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._held.game.rules.action_name(int(action))

    def is_terminal(self) -> bool:
        """Ended by the rules or truncated at the game's limit."""
        return self._held.match.status() != RUNNING

    def is_truncated(self) -> bool:
        """Whether the game ended at its step or round limit rather than by the rules."""
        return self._held.match.status() == TRUNCATED

    def returns(self) -> list[float]:
        """0 each while the game runs; then the game's final rewards (truncation's included)."""
        match = self._held.match
        if match.status() == RUNNING:
            return [0.0] * len(self._held.game.rules.agents)
        return [float(reward) for reward in match.final_rewards()]

    def position(self) -> dict[str, Any]:
        """The whole game as the game's position (JSON data; the rules' ``from_position``)."""
        return self._held.match.to_position()

    def observation(self, player: int) -> np.ndarray:
        """What seat ``player`` sees now: the game's float32 observation vector."""
        return self._held.match.observe(player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RebornState:
        """A state dealt to agree with what ``player_id`` may know now (the game's public view
        and determinizer); ``probability_sampler()`` (a number in [0, 1)) seeds the deal."""
        game = self._held.game
        require_views(game.spec.name, "resample_from_infostate")
        view = view_of(game.rules, self.position(), int(player_id))
        rng = np.random.default_rng(int(float(probability_sampler()) * 2**53))
        return RebornState(game, dealer(view)(rng))

    def __str__(self) -> str:
        return self._held.match.render_ansi()


class RebornObserver:
    """OpenSpiel's observer of the game's observation: ``tensor`` (float32) and its string."""

    def __init__(
        self, game: RebornGame, iig_obs_type: pyspiel.IIGObservationType | None, params: Any
    ) -> None:
        if params:
            raise ValueError(f"observer parameters {sorted(params)}: this observer takes none")
        if iig_obs_type is not None and not _is_observation(iig_obs_type):
            raise ValueError(
                "only the player's own observation (public info, single-player private info, no "
                f"perfect recall) is offered for {game.spec.name}; the observation is not a "
                "perfect-recall information state"
            )
        self._agents = game.rules.agents
        self._names = game.observation_names
        self.tensor = np.zeros(game.rules.obs_size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RebornState, player: int) -> None:
        self.tensor[:] = state.observation(player)

    def string_from(self, state: RebornState, player: int) -> str:
        """The seat and the non-zero entries of its observation, by name."""
        observation = state.observation(player)
        names = self._names
        seen = " ".join(f"{names[i]}={observation[i]:g}" for i in np.flatnonzero(observation))
        return f"{self._agents[player]}: {seen}"


def _is_observation(kind: pyspiel.IIGObservationType) -> bool:
    """Whether ``kind`` asks for what the game's observation is (public and own private info,
    without perfect recall)."""
    return (
        kind.public_info
        and not kind.perfect_recall
        and kind.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
    )


def _entry_names(rules: Rules) -> tuple[str, ...]:
    """A name for each float of the observation: the game's layout's, else ``[index]``."""
    layout = getattr(getattr(rules, "observer", None), "layout", None)
    if layout is not None:
        return layout.entry_names()
    return tuple(f"[{i}]" for i in range(rules.obs_size))


def register(game_name: str) -> str:
    """Register the game ``game_name`` with OpenSpiel (once); its short name. ValueError when
    OpenSpiel cannot be told its length (see :func:`game_info`)."""
    if game_name in _registered:
        return _registered[game_name]
    spec = registry.get(game_name)
    game_info(spec, _rules(spec.name, spec.default_scenario))  # refuse before registering

    # a class per game, as OpenSpiel's own Python games register: a closure would be freed by
    # OpenSpiel's registry after the interpreter has shut down, which aborts the process
    game_class = type(f"RebornGame_{game_name}", (RebornGame,), {"spec": spec})
    pyspiel.register_game(game_type(spec), game_class)
    _registered[game_name] = short_name(game_name)
    return _registered[game_name]


def register_all() -> list[str]:
    """Register every game of the registry; one OpenSpiel cannot take is left out with a
    warning saying why. The short names registered."""
    names = []
    for game_name in registry.names():
        try:
            names.append(register(game_name))
        except ValueError as err:
            warnings.warn(f"not registered with OpenSpiel: {err}", stacklevel=2)
    return names


register_all()
