"""Hold squares (ER-SCN-14): at the end of the game each faction scores the hold squares its
living figures stand on, on both engines; a scenario's hold squares are checked on load."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from reborn_env import earth_reborn_v0
from reborn_env.games.earth_reborn.fast import AVAILABLE
from reborn_env.games.earth_reborn.scenario import loader as scenario_file
from reborn_env.games.earth_reborn.scenario.loader import ScenarioError, load_scenario

BACKENDS = ["python", *(["fast"] if AVAILABLE else [])]
SCENARIO = "hold_the_line"  # hold squares (5,3), (6,3), (5,5), (6,5), 2 MP each (ER-SUITE-8)


def last_turn_position(squares: dict[str, tuple[int, int]]) -> dict[str, Any]:
    """Turn 6 of Hold the Line at the Salemites' first round decision (they hold the initiative
    in even turns, ER-SCN-9), figures moved to ``squares``."""
    env = earth_reborn_v0.env(scenario=SCENARIO, backend="python")
    env.reset(seed=0)
    while "PASS" not in legal_names(env):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    position = env.unwrapped.get_state()
    position["turn"] = 6
    position["initiative"] = position["active"] = position["decision"]["player"] = "salemite"
    for character, (x, y) in squares.items():
        position["characters"][character]["square"] = [x, y]
    return position


def legal_names(env: Any) -> list[str]:
    mask = env.observe(env.agent_selection)["action_mask"]
    return [env.unwrapped.action_name(int(a)) for a in np.flatnonzero(mask)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_er_scn_14_each_side_scores_the_hold_squares_its_figures_stand_on(backend: str) -> None:
    """Two NORAD figures on hold squares, one Salemite on one and one beside the keep: after two
    passes the last turn's victory check gives NORAD 4 MP and the Salemites 2: NORAD wins."""
    position = last_turn_position(
        {"bolter": (5, 3), "vasquez": (6, 3), "deeler": (5, 5), "jack_saw": (4, 4)}
    )
    env = earth_reborn_v0.env(scenario=SCENARIO, backend=backend)
    env.reset(options={"position": position})
    for agent in ("salemite", "norad"):
        assert env.agent_selection == agent
        env.step(env.unwrapped.action_from_name("PASS"))
    final = env.unwrapped.get_state()
    assert final["phase"] == "over"
    assert (final["players"]["norad"]["mp"], final["players"]["salemite"]["mp"]) == (4, 2)
    assert env.rewards == {"norad": 1.0, "salemite": -1.0}


@pytest.mark.parametrize("backend", BACKENDS)
def test_er_scn_14_no_hold_square_held_scores_nothing_and_equal_mp_draw(backend: str) -> None:
    position = last_turn_position({"bolter": (4, 4), "deeler": (7, 4)})
    env = earth_reborn_v0.env(scenario=SCENARIO, backend=backend)
    env.reset(options={"position": position})
    env.step(env.unwrapped.action_from_name("PASS"))
    env.step(env.unwrapped.action_from_name("PASS"))
    final = env.unwrapped.get_state()
    assert (final["players"]["norad"]["mp"], final["players"]["salemite"]["mp"]) == (0, 0)
    assert env.rewards == {"norad": 0.0, "salemite": 0.0}


@pytest.mark.parametrize(
    ("hold", "error"),
    [
        ("hold = [[9, 0]]", r"\(9,0\) is outside the rooms; a hold square is floor"),
        ("hold = [[5, 3], [5, 3]]", r"\(5,3\) is named twice"),
        ("hold = [[12, 3]]", r"\(12,3\) is off the 12 x 9 map"),
        ("", "'hold' and 'hold_mp' come together"),
    ],
)
def test_er_scn_14_bad_hold_squares_are_refused_on_load(
    tmp_path: Path, hold: str, error: str
) -> None:
    source = Path(scenario_file.__file__).parent / "data" / f"{SCENARIO}.toml"
    text = source.read_text()
    line = next(x for x in text.splitlines() if x.startswith("hold = "))
    broken = tmp_path / "broken.toml"
    broken.write_text(text.replace(line, hold))
    with pytest.raises(ScenarioError, match=error):
        load_scenario(str(broken))


def test_er_scn_14_vault_raid_has_no_hold_squares() -> None:
    mission = load_scenario("vault_raid").mission
    assert mission.hold_squares == () and mission.hold_mp == {}
