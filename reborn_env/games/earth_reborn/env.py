"""The PettingZoo AEC environment around the Earth Reborn rules engine (section 18, ER-ENV-1..10).

The environment card (agents, actions, observations, rewards, versions) is the docstring of
:mod:`reborn_env.earth_reborn_v0`. This module adds agent names, rewards, the order checks that
PettingZoo's wrappers would add, illegal-move handling and rendering; it never re-implements a rule.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.errors import IllegalActionError
from ...core.game_env import GameEnv
from . import positions
from .actions import codec_for
from .observation import observer_for
from .rules import engine
from .rules.state import GameState
from .scenario.loader import load_scenario


class raw_env(GameEnv):  # noqa: N801 - PettingZoo's naming convention
    """Earth Reborn, two players, one AEC step per decision of section 18."""

    render_module = "reborn_env.games.earth_reborn.render"
    metadata = {
        "name": "earth_reborn_v0",
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        scenario: str = "vault_raid",
        illegal_action: str = "raise",
        mp_shaping: float = 0.0,
        max_steps: int = 5000,
    ) -> None:
        super().__init__()
        self._set_modes(render_mode, illegal_action)  # ER-ENV-8
        if not isinstance(max_steps, int) or max_steps < 1:
            raise ValueError(f"max_steps must be a positive integer (ER-ENV-9), got {max_steps!r}")
        self.mp_shaping = float(mp_shaping)
        self.max_steps = max_steps
        self.scenario = load_scenario(scenario)
        self.codec = codec_for(self.scenario)
        self.observer = observer_for(self.scenario)
        self._set_spaces(list(self.scenario.factions), self.observer.size, self.codec.size)
        self.game: GameState | None = None

    # --- PettingZoo API -------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """New game from ``seed`` (random if None); ``options={"position": dict}`` starts there."""
        seed = self._seed_of(seed)
        position = self._options_of(options).get("position")
        if position is not None:
            self._start(positions.state_from_dict(position, self.scenario))
        else:
            self._start(engine.new_game(self.scenario, seed))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._require_game()
        me = self.agent_index[agent]
        mask = np.zeros(self.codec.size, dtype=np.int8)
        if game.winner is None and game.decider == me:
            mask[engine.legal_actions(game)] = 1
        return {"observation": self.observer.observe(game, me), "action_mask": mask}

    def step(self, action: int | None) -> None:
        checked = self._action_of_step(action)
        if checked is None:
            return
        agent, action = checked
        game = self._require_game()
        mp_before = game.mp[:]
        try:
            engine.apply_action(game, action)
        except IllegalActionError as err:
            self._refuse(agent, str(err))
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.mp_shaping:
            for a, i in self.agent_index.items():
                gained = (game.mp[i] - mp_before[i]) - (game.mp[1 - i] - mp_before[1 - i])
                self.rewards[a] = self.mp_shaping * gained
        if not self._check_end():
            self._sync_selection()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # --- Positions and names --------------------------------------------------------------------

    def get_state(self) -> dict[str, Any]:
        """The full position as JSON-ready data (docs/position_format.md)."""
        return positions.state_to_dict(self._require_game())

    def set_state(self, position: dict[str, Any]) -> None:
        """Restore a position; on any error nothing changes (PositionError names the field)."""
        self._start(positions.state_from_dict(position, self.scenario))

    def action_name(self, action: int) -> str:
        """Readable name of an action integer, e.g. ``STEP(N)``."""
        return self.codec.name(int(action))

    def action_from_name(self, name: str) -> int:
        """The action integer of a readable name."""
        return self.codec.parse(name)

    # --- Internals ------------------------------------------------------------------------------

    def _start(self, game: GameState) -> None:
        """A new episode around ``game`` (a new game or a restored position)."""
        self._new_episode(game)
        self._sync_selection()
        self._check_end()
        self._accumulate_rewards()

    def _check_end(self) -> bool:
        """Finish a won or drawn game, or truncate one at ``max_steps`` game steps (ER-ENV-9: the
        game's own step count, so a restored position truncates where the original would)."""
        game = self._require_game()
        if game.winner is not None:
            self._finish()
        elif game.steps >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
        else:
            return False
        return True

    def _sync_selection(self) -> None:
        game = self._require_game()
        decider = game.decider if game.winner is None else game.active
        self.agent_selection = self.possible_agents[decider]

    def _decision_text(self) -> str:
        game = self._require_game()
        names = ", ".join(self.codec.name(a) for a in engine.legal_actions(game)) or "none"
        return f"{engine.describe_decision(game)}; legal: {names}"

    def _finish(self) -> None:
        """ER-WIN-3: +1 / -1 at the end, 0 and 0 for a draw."""
        winner = self._require_game().winner
        for a, i in self.agent_index.items():
            if a in self.rewards:
                outcome = 0.0 if winner == -1 else (1.0 if winner == i else -1.0)
                self.rewards[a] += outcome
        self.terminations = {a: True for a in self.agents}


def env(**kwargs: Any) -> raw_env:
    """The environment as users get it: order checks and illegal-move handling are built in.

    PettingZoo's three standard wrappers would forward every attribute read and cost 2-4x on a
    game this size (design.md, "The environment"); raw_env does their checks itself.
    """
    return raw_env(**kwargs)
