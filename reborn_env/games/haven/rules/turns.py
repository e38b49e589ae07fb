"""The frame every turn shares, a character's, a monster's or a summon's: its start, its end and
its end when the figure leaves the map in it (HV-CTURN-1/4, HV-CEND-2/3, HV-MTURN-5, HV-MEND-1/2,
HV-STURN-1/3, HV-ELEM-7)."""

from __future__ import annotations

from .context import RuleContext
from .damage import remove_condition
from .elements import strengthen_pending
from .figures import label
from .state import EXPIRING_CONDITIONS, Figure


def begin_turn(ctx: RuleContext, fig: Figure) -> set[str]:
    """HV-CTURN-1, HV-MTURN-5, HV-STURN-1: start a turn; returns the set S of expiring
    conditions the figure has now."""
    ctx.turn_figure = fig
    ctx.fresh_conditions = set()
    ctx.state.pending_infusions = []
    ctx.log("TURN_START", figure=label(ctx.scenario, fig))
    return set(fig.conditions).intersection(EXPIRING_CONDITIONS)


def end_turn(ctx: RuleContext, fig: Figure, start: set[str]) -> None:
    """HV-CEND-2/3, HV-MEND-1/2, HV-STURN-3: conditions present at the start (and not
    re-applied since) end; pending infusions become strong."""
    for condition in sorted(start - ctx.fresh_conditions):
        if condition in fig.conditions:
            remove_condition(ctx, fig, condition)
    strengthen_pending(ctx)
    ctx.log("TURN_END", figure=label(ctx.scenario, fig))
    ctx.turn_figure = None


def abort_turn(ctx: RuleContext) -> None:
    """HV-CTURN-4, HV-ELEM-7: a figure removed in its own turn runs no end-of-turn step."""
    ctx.state.pending_infusions = []
    ctx.turn_figure = None
