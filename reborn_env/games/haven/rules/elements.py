"""Elements: infusions wait for the end of the turn, consumption is at once (HV-ELEM-2..4).

The waning of cleanup (HV-ELEM-3) is a step of :func:`.round.cleanup`.
"""

from __future__ import annotations

from ..scenario.model import ELEMENTS
from .context import RuleContext
from .figures import label
from .state import STRONG, Figure


def infuse(ctx: RuleContext, element: str | None) -> None:
    """HV-ELEM-2: an infusion joins the running turn's pending set."""
    index = ELEMENTS.index(element or "")
    if index not in ctx.state.pending_infusions:
        ctx.state.pending_infusions.append(index)
    ctx.log("INFUSE_PENDING", element=element)


def consume(ctx: RuleContext, element: int, fig: Figure) -> None:
    """HV-ELEM-4: a strong or waning element becomes inert at once."""
    ctx.state.elements[element] = 0
    ctx.log("CONSUME", element=ELEMENTS[element], figure=label(ctx.scenario, fig))


def strengthen_pending(ctx: RuleContext) -> None:
    """HV-ELEM-2: at the end of the turn, the turn's infusions become strong."""
    for element in ctx.state.pending_infusions:
        ctx.state.elements[element] = STRONG
        ctx.log("ELEMENT", element=ELEMENTS[element], state="strong")
    ctx.state.pending_infusions = []
