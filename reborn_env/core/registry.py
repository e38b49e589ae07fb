"""The registry of games: each game registers itself; front-ends, trainers and tests ask here.

Why: nothing outside a game's package names the game. A game package calls :func:`register` in
its ``__init__`` with a :class:`GameSpec` whose factories are ``"module:attribute"`` strings,
imported only when used, so importing a game's rules stays as light as the rules themselves.
:func:`names` and :func:`get` find the games: every package under :mod:`reborn_env.games`, those
other distributions declare under the ``reborn_env.games`` entry-point group, and any registered
directly (a test's toy game).
"""

from __future__ import annotations

import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module, metadata
from typing import TYPE_CHECKING, Any

from .facts import GameFacts

if TYPE_CHECKING:
    from .vector_env import GameVector

ENTRY_POINT_GROUP = "reborn_env.games"
_BUNDLED = "reborn_env.games"  # the package whose subpackages are the games shipped here


@dataclass(frozen=True)
class GameSpec:
    """What the rest of the project needs to know of one game."""

    name: str  # the environment's name, e.g. "chess_v0" (the ``_vN`` suffix is its version)
    title: str  # for people, e.g. "Chess"
    env: str  # "module:attribute" of the ``env(**kwargs)`` factory (a PettingZoo AECEnv)
    scenarios: str = ""  # the package whose data/*.toml files are the bundled scenarios
    default_scenario: str = ""
    # scenarios beyond the bundled files that the conformance suite also plays (e.g. one a
    # generator draws from a seed): names ``make_env(scenario=...)`` takes
    more_scenarios: tuple[str, ...] = ()
    bots: Mapping[str, str] = field(default_factory=dict)  # kind -> "module:Class" (seed=...)
    # kind -> "module:function(scenario, seeds)": that bot for many games at once (the API of
    # bots.batched.BatchedBot), or None where its compiled form is not built; without an entry,
    # bots.batched.batched_bot loops over one ordinary bot per game
    batched_bots: Mapping[str, str] = field(default_factory=dict)
    seat: str = ""  # the seat a person takes by default in terminal play
    colours: str = ""  # "module:attribute": one RGB colour per agent, for pictures
    check_step: str = ""  # "module:function(env, agent)": invariants and masks, after each step
    busy_policy: str = ""  # "module:function(rng, mask, env) -> action": random but eventful
    # "module:function(match, seat, rng) -> Match | None": a match that differs from ``match`` only
    # in what ``seat`` may not see (rng: a numpy Generator), None when it offers none now
    hidden_variant: str = ""
    # "module:function(position, seat) -> dict": the position as ``seat`` may know it (what it
    # may not see removed: core.public_view), for search bots; "" when the game offers none
    public_view: str = ""
    # "module:function(rules, view, seat) -> deal(rng) -> Match": matches consistent with a
    # public view, the hidden part dealt from a numpy Generator (core.public_view.dealer)
    determinizer: str = ""
    # "module:function(match, seat, legal) -> dict": what ``seat`` may see, as the web page's
    # drawing data (docs/web.md; ``legal``: its legal actions, clickable), "" for none
    board_view: str = ""
    # "module:function(num_envs, seed, num_threads, **options)": a compiled vector of games, a
    # core.vector_env.GameVector (MakeVector); without one, make_vector_env loops over AEC envs
    vector_env: str = ""
    # layout -> "module:function(make, scenario, seeds)": batched bots of a layout other than the
    # scenario's own (``make(scenario, seeds)`` gives them in the scenario's), where a game's env
    # takes a ``layout`` option
    layouts: Mapping[str, str] = field(default_factory=dict)
    policy: str = ""  # the shipped policy checkpoint, a path from the repository's root
    draw_caption: str = "DRAW"  # a picture's caption for a game that ended level
    # its kind (opponents or one team), chance, information, utility range and length bound
    facts: GameFacts = GameFacts()

    def decision_bound(self, rules: Any) -> int:
        """The most decisions a game of ``rules`` (as configured) takes from its start: the
        game's own bound for that configuration (:attr:`GameFacts.max_game_length_of`) where it
        has one, else :attr:`GameFacts.max_game_length` (0: not known)."""
        if self.facts.max_game_length_of:
            return int(resolve(self.facts.max_game_length_of)(rules))
        return self.facts.max_game_length

    def make_env(self, **kwargs: Any) -> Any:
        """A new environment of this game (``scenario=``, options, ``render_mode=`` ...)."""
        return resolve(self.env)(**kwargs)

    def make_vector_env(
        self, num_envs: int, seed: int = 0, num_threads: int = 1, **options: Any
    ) -> GameVector:
        """``num_envs`` games stepped as one vector (env options as :meth:`make_env` takes them):
        the game's compiled vector if it registers one, stepping with ``num_threads``, else an
        AECVectorEnv of its AEC envs (one loop, whatever ``num_threads``)."""
        if self.vector_env:
            return resolve(self.vector_env)(num_envs, seed, num_threads, **options)
        from .aec_vector import AECVectorEnv

        return AECVectorEnv(self.make_env, num_envs, seed, num_threads, **options)

    def make_bot(self, kind: str, seed: int | None = None, scenario: str | None = None) -> Any:
        """This game's bot of ``kind`` (e.g. ``"heuristic"``) for ``scenario`` (None: the
        default one); ValueError listing the kinds."""
        if kind not in self.bots:
            raise ValueError(
                f"no {kind!r} bot for {self.name}; it has {', '.join(self.bots) or 'none'}"
            )
        if scenario is not None:
            return resolve(self.bots[kind])(seed=seed, scenario=scenario)
        return resolve(self.bots[kind])(seed=seed)

    def agent_colours(self) -> list[tuple[int, int, int]]:
        """One RGB colour per agent (seat order), as the game's pictures draw them."""
        return list(resolve(self.colours)) if self.colours else []

    def scenario_names(self) -> list[str]:
        """The scenarios bundled with the game, by name."""
        from .data_files import bundled_names

        return bundled_names(self.scenarios) if self.scenarios else []

    def step_check(self) -> Callable[[Any, str], None] | None:
        """The game's per-step check for fuzzing (:attr:`check_step`), or None without one."""
        return resolve(self.check_step) if self.check_step else None

    def busy(self) -> Callable[..., int] | None:
        """The game's eventful random policy (:attr:`busy_policy`), or None without one."""
        return resolve(self.busy_policy) if self.busy_policy else None

    def hidden(self) -> Callable[..., Any] | None:
        """The game's hidden-information variant (:attr:`hidden_variant`), or None without one."""
        return resolve(self.hidden_variant) if self.hidden_variant else None

    def board(self) -> Callable[..., dict[str, Any]] | None:
        """The game's board view for the web page (:attr:`board_view`), or None without one."""
        return resolve(self.board_view) if self.board_view else None

    def result_caption(self, returns: Mapping[str, float]) -> str:
        """A finished game's result for a picture's caption, from each agent's return (the
        caption font has no + or - signs): a team's ``TEAM WINS`` / ``TEAM LOSES``, else the
        best agent's ``<AGENT> WINS``; :attr:`draw_caption` when nobody won."""
        if self.facts.cooperative:
            value = next(iter(returns.values()))
            return "TEAM WINS" if value > 0 else ("TEAM LOSES" if value < 0 else self.draw_caption)
        if len(set(returns.values())) == 1:
            return self.draw_caption
        return f"{max(returns, key=returns.__getitem__)} WINS"


_GAMES: dict[str, GameSpec] = {}
_discovered = False


def register(spec: GameSpec) -> None:
    """Add a game; registering the same name twice with another spec, or a spec whose facts are
    not a :class:`GameFacts` (which checks itself when made), is an error."""
    if not isinstance(spec.facts, GameFacts):
        raise ValueError(
            f"{spec.name}: GameSpec.facts is a {type(spec.facts).__name__}, not a "
            "reborn_env.core.facts.GameFacts"
        )
    known = _GAMES.get(spec.name)
    if known is not None and known != spec:
        raise ValueError(f"a game named {spec.name!r} is already registered ({known.title})")
    _GAMES[spec.name] = spec


def unregister(name: str) -> None:
    """Remove a game (for tests that register a toy game)."""
    _GAMES.pop(name, None)


def names() -> list[str]:
    """Every registered game's environment name, sorted."""
    _discover()
    return sorted(_GAMES)


def get(name: str) -> GameSpec:
    """The game registered as ``name``; ValueError listing the games there are."""
    _discover()
    if name not in _GAMES:
        raise ValueError(f"no game named {name!r}; the games are {', '.join(sorted(_GAMES))}")
    return _GAMES[name]


def default_name() -> str:
    """The game a command starts when none is named: the first, in name order, of the games
    bundled under ``reborn_env.games`` (a test's or a plug-in's game never becomes it)."""
    _discover()
    bundled = [n for n, spec in _GAMES.items() if spec.env.startswith(f"{_BUNDLED}.")]
    return min(bundled or _GAMES)


def resolve(target: str) -> Callable[..., Any]:
    """The object a ``"module:attribute"`` string names."""
    module, _, attribute = target.partition(":")
    return getattr(import_module(module), attribute)


def _discover() -> None:
    """Import every game package once: those under reborn_env.games and the entry points."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    games = import_module(_BUNDLED)
    for info in pkgutil.iter_modules(games.__path__, f"{games.__name__}."):
        if info.ispkg:
            import_module(info.name)
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        entry.load()
