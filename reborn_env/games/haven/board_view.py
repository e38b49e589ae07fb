"""What one character may see of a haven game, as drawing data for the web page.

Why: the page (reborn_env.web) draws any game from one generic shape (docs/web.md). This module
fills it with what the shared render shows (16.5: the map, tokens, figures, round state, piles)
plus the seat's own hand with each card's top and bottom texts, the monster ability cards in play
and the modifier decks' counts. Another character's hand is a count and its picks stay hidden
until revealed (HV-SEL-3, :func:`.render.public_picks`); no deck's order is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import ActionSpace
from .render import (
    CHARACTER_COLOURS,
    COIN,
    FLOOR_COLOUR,
    MONSTER_COLOURS,
    OBSTACLE_COLOUR,
    SUMMON_COLOUR,
    TERRAIN_COLOURS,
    TREASURE,
    WALL_COLOUR,
    public_picks,
)
from .rules.hexgrid import SIDES, neighbour_side
from .rules.state import ELEMENT_STATE_NAMES, SELECT, ModifierDeck
from .scenario.model import (
    ELEMENTS,
    ELITE,
    OBSTACLE,
    WALL,
    Ability,
    AbilityCard,
    Box,
    Grid,
    Scenario,
)


def _hex(rgb: Sequence[int]) -> str:
    return "#" + "".join(f"{int(c):02x}" for c in rgb)


def ability_text(ability: Ability) -> str:
    """One ability as a card prints it, e.g. ``attack 3 range 2 targets 2 poison``."""
    words = [ability.kind.replace("_", " ")]
    if ability.value:
        words.append(str(ability.value))
    if ability.range:
        words.append(f"range {ability.range}")
    if ability.targets > 1:
        words.append(f"targets {ability.targets}")
    if ability.pierce:
        words.append(f"pierce {ability.pierce}")
    words += list(ability.conditions)
    if ability.element:
        words.append(ability.element)
    if ability.summon:
        words.append(ability.summon)
    if ability.consume is not None:
        extra = f" +{ability.consume.bonus}" if ability.consume.bonus else ""
        conditions = "".join(f" {c}" for c in ability.consume.conditions)
        words.append(f"(consume {ability.consume.element}:{extra}{conditions})")
    return " ".join(words)


def _box_text(box: Box) -> str:
    return "; ".join(ability_text(a) for a in box.abilities) + f" [{box.fate}]"


def _card_item(space: ActionSpace, card: AbilityCard, k: int) -> dict[str, Any]:
    return {
        "title": f"{card.id} {card.name} (initiative {card.initiative})",
        "action": space.name(space.card_action(k)),
        "lines": [f"top: {_box_text(card.top)}", f"bottom: {_box_text(card.bottom)}"],
    }


def _legend(scn: Scenario) -> list[dict[str, str]]:
    rows = [
        {"key": "floor", "shape": "cell", "colour": _hex(FLOOR_COLOUR), "text": "floor"},
        {"key": "obstacle", "shape": "cell", "colour": _hex(OBSTACLE_COLOUR), "text": "obstacle"},
        {"key": "wall", "shape": "cell", "colour": _hex(WALL_COLOUR), "text": "wall"},
        {"key": "coin", "shape": "cell", "colour": _hex(COIN), "text": "coin ($n: n coins)"},
        {"key": "treasure", "shape": "cell", "colour": _hex(TREASURE), "text": "treasure (T)"},
    ]
    for kind in scn.map.terrain_kinds:  # HV-TER-1: only the kinds this map uses
        rows.append(
            {"key": kind, "shape": "cell", "colour": _hex(TERRAIN_COLOURS[kind]), "text": kind}
        )
    for cls, colour in zip(scn.characters, CHARACTER_COLOURS, strict=False):
        rows.append({"key": cls.id, "shape": "piece", "colour": _hex(colour), "text": cls.id})
    rows.append(
        {"key": "summon", "shape": "piece", "colour": _hex(SUMMON_COLOUR), "text": "summon"}
    )
    for mtype, colour in zip(scn.monster_types, MONSTER_COLOURS, strict=False):
        rows.append(
            {
                "key": mtype.id,
                "shape": "piece",
                "colour": _hex(colour),
                "text": f"{mtype.id} ({mtype.letter.lower()} normal, {mtype.letter.upper()} elite)",
            }
        )
    rows += [
        {"key": "wounded", "shape": "note", "symbol": "◯", "text": "red ring: lost HP"},
        {"key": "target", "shape": "note", "symbol": "⬚", "text": "dashed: click to play"},
    ]
    return rows


def _edges(scn: Scenario) -> list[dict[str, Any]]:
    """HV-TW-5: each thin wall once, as the side of its lower-id cell it lies on."""
    out = []
    for a, b in scn.map.thin_walls:
        col, row = scn.map.grid.xy(a)
        side = SIDES[neighbour_side(a, b, scn.map.width)].upper()
        out.append({"x": col, "y": row, "side": side, "key": "wall"})
    return out


def _cells(game: Any) -> list[dict[str, Any]]:
    state, scn = game.state, game.scenario
    cells = []
    for cell, kind in enumerate(scn.map.cells):
        col, row = scn.map.grid.xy(cell)
        key = {OBSTACLE: "obstacle", WALL: "wall"}.get(kind, "floor")
        for terrain, where in scn.map.fixed_terrain:
            if cell in where:
                key = terrain
        if cell in state.traps:  # HV-TER-2: a sprung trap is floor again
            key = "trap"
        label = ""
        coins = state.coins.get(cell, 0)
        if coins:
            key, label = "coin", "$" if coins == 1 else f"${coins}"
        if cell in state.treasures:
            key, label = "treasure", "T" + ("$" if coins else "")
        cells.append({"x": col, "y": row, "key": key, "label": label})
    return cells


def _piece(
    grid: Grid, cell: int, label: str, key: str, hp: int, max_hp: int, title: str
) -> dict[str, Any]:
    col, row = grid.xy(cell)
    return {
        "x": col,
        "y": row,
        "label": label,
        "key": key,
        "facing": None,
        "wounded": hp < max_hp,
        "wounds": max_hp - hp,
        "dead": False,
        "active": False,
        "title": title,
    }


def _pieces(game: Any) -> list[dict[str, Any]]:
    state, scn = game.state, game.scenario
    grid = scn.map.grid
    pieces = []
    for c, ch in enumerate(state.characters):
        if ch.cell is not None and not ch.exhausted:
            cls = scn.characters[c]
            conditions = ", ".join(ch.conditions) or "no conditions"
            title = f"{cls.id}: HP {ch.hp}/{ch.max_hp}, {conditions}"
            pieces.append(_piece(grid, ch.cell, cls.map_letter, cls.id, ch.hp, ch.max_hp, title))
    for s in state.summons:
        title = f"summon {s.summon} of {scn.characters[s.owner].id}: HP {s.hp}/{s.max_hp}"
        pieces.append(_piece(grid, s.cell, f"W{s.number}", "summon", s.hp, s.max_hp, title))
    for m in state.monsters:
        mtype = scn.monster_types[m.type]
        letter = mtype.letter.upper() if m.rank == ELITE else mtype.letter.lower()
        conditions = ", ".join(m.conditions) or "no conditions"
        title = f"{m.rank} {mtype.id} {m.standee}: HP {m.hp}/{m.max_hp}, {conditions}"
        pieces.append(_piece(grid, m.cell, f"{letter}{m.standee}", mtype.id, m.hp, m.max_hp, title))
    return pieces


def _held(state: Any, ch: Any, mine: bool) -> int:
    """The cards in a hand as the seat may count them: during the selection another
    character's secret picks still count as held (HV-SEL-3: a pick is no cue to its number)."""
    if mine or state.phase != SELECT:
        return len(ch.hand)
    return len(ch.hand) + sum(k is not None for k in (ch.lead, ch.second))


def _deck_line(name: str, deck: ModifierDeck) -> str:
    last = deck.discard[-1] if deck.discard else "-"
    due = ", reshuffle due" if deck.shuffle_due else ""
    return f"{name}: draw {len(deck.draw)}, discard {len(deck.discard)} (last {last}){due}"


def _monster_cards(game: Any) -> list[dict[str, Any]]:
    """Each monster type's ability card in play (its abilities) and its deck's counts."""
    state, scn = game.state, game.scenario
    items = []
    for t, deck in enumerate(state.monster_decks):
        mtype = scn.monster_types[t]
        counts = f"draw {len(deck.draw)}, discard {len(deck.discard)}"
        if deck.current is None:
            items.append({"title": f"{mtype.id}: no card ({counts})", "lines": []})
            continue
        card = next(c for c in mtype.deck if c.id == deck.current)
        shuffle = ", shuffle" if card.shuffle else ""
        items.append(
            {
                "title": f"{mtype.id}: {card.id} {card.name} (initiative {card.initiative}"
                f"{shuffle}; {counts})",
                "lines": [ability_text(a) for a in card.abilities],
            }
        )
    return items


def _targets(space: ActionSpace, legal: Sequence[int]) -> list[dict[str, Any]]:
    targets = []
    for action in legal:
        kind, args = space.decode(int(action))
        if kind == "HEX":
            col, row = space.grid.xy(args[0])
            targets.append({"x": col, "y": row, "action": int(action), "name": space.name(action)})
    return targets


def board_view(match: Any, seat: int, legal: Sequence[int] = ()) -> dict[str, Any]:
    """The game in ``match`` as character ``seat`` may see it, as the page's JSON drawing data;
    ``legal`` (the seat's legal actions, empty when it is not to move) become clickable hexes."""
    game = match.state
    state, scn = game.state, game.scenario
    cap = getattr(game.config, "max_rounds", scn.rules.round_cap)
    me = state.characters[seat]
    elements = [
        f"{ELEMENTS[e]} {ELEMENT_STATE_NAMES[s]}" for e, s in enumerate(state.elements) if s
    ]
    status = [
        f"{scn.title}: round {state.round}/{cap}, phase {state.phase}, outcome {state.outcome}",
        "elements: " + (", ".join(elements) or "all inert"),
    ]
    prompt = game.prompt
    if prompt is not None:
        status.append(f"decision: {prompt.kind} for {scn.characters[prompt.agent].id}")
    panels = []
    for c, ch in enumerate(state.characters):
        cls = scn.characters[c]
        lead, second = (ch.lead, ch.second) if c == seat else public_picks(state, ch)
        picks = [cls.cards[k].id for k in (lead, second) if k is not None]
        if state.phase == SELECT and c != seat and not picks:
            picks = ["hidden"]
        items = " ".join(f"{item.id}:{st}" for item, st in zip(cls.items, ch.items, strict=False))
        piles = {"discard": ch.discard, "lost": ch.lost, "active": ch.active_fate}
        lines = [
            f"HP {ch.hp}/{ch.max_hp}, gold {ch.gold}, hand {_held(state, ch, c == seat)} cards"
            + (", exhausted" if ch.exhausted else "")
            + (", long rest" if ch.long_rest and state.phase != SELECT else ""),
            "picks: " + (" + ".join(picks) or "-"),
            f"items: {items or '-'}",
            "conditions: " + (", ".join(ch.conditions) or "-"),
        ]
        for pile, cards in piles.items():
            lines.append(f"{pile}: " + (" ".join(cls.cards[k].id for k in cards) or "-"))
        lines.append(_deck_line("modifier deck", ch.amd))
        panels.append({"title": cls.id + (" (you)" if c == seat else ""), "items": [
            {"title": "", "lines": lines}
        ]})  # fmt: skip
    panels.append({"title": "monster ability cards", "items": _monster_cards(game)})
    panels.append(
        {
            "title": "monster modifier deck",
            "items": [{"title": "", "lines": [_deck_line("monsters", state.monster_amd)]}],
        }  # fmt: skip
    )
    cls = scn.characters[seat]
    return {
        "title": scn.title,
        "seat": cls.id,
        "grid": {"shape": "hex", "width": scn.map.width, "height": scn.map.height},
        "legend": _legend(scn),
        "cells": _cells(game),
        "edges": _edges(scn),
        "pieces": _pieces(game),
        "targets": _targets(game.actions, legal),
        "status": status,
        "hand": {
            "title": f"your cards ({cls.id})",
            "items": [_card_item(game.actions, cls.cards[k], k) for k in sorted(me.hand)],
            "others": ", ".join(
                f"{scn.characters[c].id} holds {_held(state, ch, False)} cards"
                for c, ch in enumerate(state.characters)
                if c != seat
            ),
        },
        "panels": panels,
    }
