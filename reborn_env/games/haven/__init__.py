"""haven: Gloomhaven-style turn execution (spec: haven.md): the rules engine (``rules/``, pure
Python), its scenarios, positions and fixtures, observation, render, environment and scripted bot.

Importing this package registers the game (:mod:`reborn_env.core.registry`); nothing heavier is
imported.
"""

from ...core.facts import Chance, GameFacts, Information, Kind
from ...core.registry import GameSpec, register

register(
    GameSpec(
        name="haven_v0",
        title="haven",
        env=f"{__name__}.env:env",
        scenarios=f"{__name__}.scenario",
        default_scenario="raider_camp",
        bots={"heuristic": f"{__name__}.bots:HavenScriptedBot"},
        seat="bulwark",
        colours=f"{__name__}.render:CHARACTER_COLOURS",
        check_step=f"{__name__}.fuzz_policies:check_step",
        busy_policy=f"{__name__}.fuzz_policies:busy_policy",
        hidden_variant=f"{__name__}.hidden:hidden_variant",  # HV-SEL-3: the others' secret picks
        board_view=f"{__name__}.board_view:board_view",  # the web page
        policy="checkpoints/haven_ppo.pt",
        draw_caption="OUT OF ROUNDS",  # HV-END-4: the only level end is the round cap
        facts=GameFacts(
            kind=Kind.IDENTICAL,  # one team of characters sharing every reward
            chance=Chance.SAMPLED_STOCHASTIC,  # HV-API-9: deck shuffles, short-rest picks
            information=Information.IMPERFECT,  # HV-SEL-3: the others' secret picks
            max_game_length=2240,  # 15.10: Raider Camp's bound on the agents' decisions
            max_game_length_of=f"{__name__}.match:rules_step_bound",
        ),
    )
)
