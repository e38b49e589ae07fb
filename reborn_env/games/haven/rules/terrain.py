"""Terrain and movement kinds (sections 21 and 25, HV-TER-*, HV-JMP-*, HV-FLY-*, HV-TEL-*): what
entering a hex costs and does.

A Move is a walk, a jump, a flight or a teleport (HV-JMP-1, HV-FLY-1, HV-TEL-1). A walk pays 2
points for difficult terrain (HV-TER-4) and suffers every negative hex it enters: a trap springs
and is removed (HV-TER-2), hazardous terrain hurts each time (HV-TER-3). A jump or a teleport
suffers only its last hex (HV-JMP-2, HV-TEL-3); a flight, or a flier's teleport, none
(HV-FLY-2). :class:`.path_graph.PathGraph` prices paths with :func:`entry_weights`;
:func:`follow` carries a figure along the path it chose.
"""

from __future__ import annotations

from collections.abc import Generator

from ..scenario.model import MAX_HEIGHT, MAX_WIDTH, Ability, MonsterType
from .context import RuleContext
from .damage import add_condition, suffer_damage
from .figures import board_for, label, on_map
from .prompts import Prompt
from .state import Figure

WALK, JUMP, FLY = "walk", "jump", "fly"
TELEPORT, FLY_TELEPORT = "teleport", "fly-teleport"  # HV-TEL-1: a flier's teleport is the second
TELEPORTS = (TELEPORT, FLY_TELEPORT)

# HV-AI-10: one negative hex weighs more than the movement points of any path (at most 2 a hex,
# HV-TER-4, on the largest grid HV-MAP-1 allows), so a sum of weights orders paths by negative
# hexes first, then by points.
NEGATIVE = 2 * MAX_WIDTH * MAX_HEIGHT + 1


def move_kind(ability: Ability, mtype: MonsterType | None = None) -> str:
    """HV-JMP-1, HV-FLY-1, HV-TEL-1: a Move flies if it says so or its monster type has Flying; a
    teleport stays one, a flier's suffering no terrain."""
    flies = mtype is not None and mtype.flying
    if ability.teleport:
        return FLY_TELEPORT if flies else TELEPORT
    if ability.flying or flies:
        return FLY
    return JUMP if ability.jump else WALK


def points(cost: int) -> int:
    """The movement points of a path weight (HV-AI-10: the part below NEGATIVE)."""
    return cost % NEGATIVE


def negatives(cost: int) -> int:
    """The negative hexes of a path weight (HV-AI-10)."""
    return cost // NEGATIVE


def is_negative(ctx: RuleContext, cell: int) -> bool:
    """HV-TER-5: a trap not yet sprung or hazardous terrain."""
    return cell in ctx.state.traps or board_for(ctx.scenario).hazardous[cell]


def negative_hexes(ctx: RuleContext) -> list[bool]:
    """HV-TER-5 for every cell at once: :func:`is_negative` of each cell id."""
    traps = ctx.state.traps
    return [
        cell in traps or hazardous
        for cell, hazardous in enumerate(board_for(ctx.scenario).hazardous)
    ]


def on_terrain(ctx: RuleContext, cell: int) -> bool:
    """HV-TER-9, HV-ICE-6: the hex holds an unsprung trap, hazardous, difficult or icy terrain
    (not empty)."""
    board = board_for(ctx.scenario)
    return (
        cell in ctx.state.traps or board.hazardous[cell] or board.difficult[cell] or board.icy[cell]
    )


def entry_weights(ctx: RuleContext, price_negatives: bool) -> list[int]:
    """HV-TER-4, HV-AI-10: the weight of walking into each cell: its points (2 for difficult
    terrain, else 1), plus NEGATIVE for a negative hex when ``price_negatives`` (a monster's
    path; a character counts points only)."""
    board = board_for(ctx.scenario)
    weights = [2 if difficult else 1 for difficult in board.difficult]
    if price_negatives:
        for cell, hazardous in enumerate(board.hazardous):
            if hazardous:
                weights[cell] += NEGATIVE
        for cell in ctx.state.traps:
            weights[cell] += NEGATIVE
    return weights


def landing_weights(ctx: RuleContext, price_negatives: bool) -> list[int]:
    """HV-JMP-2: what a jump's last hex adds to its steps: 1 for difficult terrain, NEGATIVE for a
    negative hex when ``price_negatives``."""
    return [w - 1 for w in entry_weights(ctx, price_negatives)]


def teleport_landing_weights(ctx: RuleContext, price_negatives: bool) -> list[int]:
    """HV-TEL-3: what a teleport's last hex adds to its distance: NEGATIVE for a negative hex when
    ``price_negatives``, nothing for difficult terrain."""
    if not price_negatives:
        return [0] * len(board_for(ctx.scenario).floor)
    return [NEGATIVE if negative else 0 for negative in negative_hexes(ctx)]


def suffered(kind: str, path: list[int]) -> list[int]:
    """HV-TER-2/3, HV-JMP-2, HV-FLY-2, HV-TEL-3: the hexes of a Move's path (start excluded)
    whose terrain acts: all of a walk's, a jump's or a teleport's last, none of a flight's or a
    flier's teleport."""
    if kind == WALK:
        return path
    return path[-1:] if kind in (JUMP, TELEPORT) else []


def follow(
    ctx: RuleContext, fig: Figure, kind: str, path: list[int]
) -> Generator[Prompt, int, None]:
    """HV-TER-6: the figure moves along ``path`` (the hexes it enters, in order) to its last hex.
    At each negative hex whose terrain acts it stops there, suffers it, and goes on unless it left
    the map. A Move with no negative hex is logged as one MOVE, as before terrain."""
    acting = set(suffered(kind, path)) if board_for(ctx.scenario).terrain else set()
    for cell in path:
        if cell in acting and is_negative(ctx, cell):
            _step(ctx, fig, cell)
            yield from enter_negative(ctx, fig, cell)
            if not on_map(ctx.state, fig):
                return
    if path:
        _step(ctx, fig, path[-1])


def _step(ctx: RuleContext, fig: Figure, cell: int) -> None:
    """Log and make the move from the figure's hex to ``cell`` (nothing if it is there)."""
    if cell != fig.cell:
        ctx.log("MOVE", figure=label(ctx.scenario, fig), **{"from": fig.cell}, to=cell)
        fig.cell = cell


def enter_negative(ctx: RuleContext, fig: Figure, cell: int) -> Generator[Prompt, int, None]:
    """HV-TER-2: a trap springs (removed first, then its damage, then its conditions);
    HV-TER-3: hazardous terrain deals its damage."""
    terrain = ctx.scenario.terrain
    if cell in ctx.state.traps:
        ctx.state.traps.remove(cell)
        ctx.log("TRAP", figure=label(ctx.scenario, fig), cell=cell)
        yield from suffer_damage(ctx, fig, terrain.trap_damage)
        for condition in terrain.trap_conditions:
            if on_map(ctx.state, fig):
                add_condition(ctx, fig, condition)
    else:
        ctx.log("HAZARD", figure=label(ctx.scenario, fig), cell=cell)
        yield from suffer_damage(ctx, fig, terrain.hazardous_damage)
