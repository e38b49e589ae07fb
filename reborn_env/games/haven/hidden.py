"""What a character may not see, as a game that differs only there (HV-SEL-3), for the tests.

Selection is secret until every character has chosen (HV-SEL-3; serialised by HV-API-3: the
Bulwark answers its selection prompts, then the Conjurer): :func:`hidden_variant` replays this
round's selection with the other characters' picks chosen anew, and changes nothing else. The
conformance suite requires the character's observation and legal actions to stay byte-identical in
the variant.
"""

from __future__ import annotations

import numpy as np

from .match import HavenMatch
from .rules.engine import HavenGame
from .rules.state import SELECT


def hidden_variant(match: HavenMatch, seat: int, rng: np.random.Generator) -> HavenMatch | None:
    """``match`` with this round's secret picks of every other character replaced by other legal
    ones (HV-SEL-1..3): a character done selecting selects anew (a long rest included), one that
    picked its leading card picks another (HV-SEL-4), ``seat``'s own picks are kept. None outside
    the selection or when the new picks are the old ones (under 16.8's
    ``reveal_second_card_at_turn`` the second card stays private into the turns; this variant
    leaves it as it is)."""
    game = match.state
    if game.state.phase != SELECT or game.prompt is None:
        return None
    position = game.to_position()  # the round's start (a quiet point) and the picks since
    answers = position["answers"]
    original = HavenGame.from_position({**position, "answers": []}, game.scenario, game.kernels)
    variant = original.clone()
    done = 0
    while done < len(answers):
        agent = original.prompt.agent
        start = done
        while done < len(answers) and original.prompt.agent == agent:
            original.apply(answers[done])
            done += 1
        if agent == seat:
            for answer in answers[start:done]:
                variant.apply(answer)
        elif original.prompt.agent != agent:  # its selection is over: select anew
            while variant.prompt.agent == agent:
                variant.apply(_any(rng, variant.legal_actions()))
        else:  # it picked its leading card and the second is pending: another leading card
            rest = variant.actions.LONG_REST
            variant.apply(_any(rng, [a for a in variant.legal_actions() if a != rest]))
    if variant.to_position() == position:
        return None
    return HavenMatch(match.rules, variant)


def _any(rng: np.random.Generator, legal: tuple[int, ...] | list[int]) -> int:
    return int(legal[int(rng.integers(len(legal)))])
