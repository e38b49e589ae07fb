"""Earth Reborn: the rules engine (``rules/``, pure Python, no gymnasium, pettingzoo or torch),
its scenarios, positions, observation, render, environment and heuristic bot.

``rules.engine.new_game``, ``legal_actions`` and ``apply_action`` play a game; ``positions`` saves
and loads it; ``env`` (imported only when asked for) wraps it for PettingZoo. Importing this
package registers the game (:mod:`reborn_env.core.registry`); nothing heavier is imported.
"""

from ...core.facts import Chance, GameFacts, Information, Kind
from ...core.registry import GameSpec, register

register(
    GameSpec(
        name="earth_reborn_v0",
        title="Earth Reborn",
        env=f"{__name__}.env:env",
        scenarios=f"{__name__}.scenario",
        default_scenario="vault_raid",
        more_scenarios=("generated:1000000",),  # a held-out generated map (ER-MAPGEN-4)
        bots={
            "heuristic": f"{__name__}.bots:EarthRebornHeuristicBot",
            "saw_hunter": f"{__name__}.saw_hunter:EarthRebornSawHunterBot",
        },
        batched_bots={
            "heuristic": f"{__name__}.fast.heuristic:compiled_batch",
            "saw_hunter": f"{__name__}.fast.heuristic:compiled_saw_hunter_batch",
        },
        seat="norad",
        colours=f"{__name__}.render:FACTION_COLOURS",
        check_step=f"{__name__}.fuzz_policies:check_step",
        busy_policy=f"{__name__}.fuzz_policies:busy_policy",
        hidden_variant=f"{__name__}.hidden:hidden_variant",  # ER-HID-12
        public_view=f"{__name__}.public:public_view",  # ER-HID-13
        determinizer=f"{__name__}.public:determinizer",
        board_view=f"{__name__}.board_view:board_view",  # the web page
        vector_env=f"{__name__}.vectors:vector_env",  # the compiled core
        layouts={"universal": f"{__name__}.universal_bots:universal_batch"},  # ER-UNI-7
        policy="checkpoints/earth_reborn_final_league.pt",
        facts=GameFacts(
            kind=Kind.ZERO_SUM,  # two factions, one's win the other's loss
            chance=Chance.SAMPLED_STOCHASTIC,  # ER-INI-1: tiles drawn from the bag; the dice
            information=Information.IMPERFECT,  # ER-HID-12: the other screen and the bag
            max_game_length=3000,  # ER-SCN-13: invariants.STEP_BOUND (Vault Raid under 2736)
            max_game_length_of=f"{__name__}.match:rules_step_bound",
        ),
    )
)
