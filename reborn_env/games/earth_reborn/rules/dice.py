"""Yellow combat dice and black search dice (ER-DICE-1..5), rolled from the state's one generator.

Faces are numbered 1..6 and named ``Y1``..``Y6`` / ``B1``..``B6``. Tests inject the next faces with
:func:`inject` (ER-DICE-4). Injected faces are kept in one queue but taken per colour: a yellow die
takes the first queued yellow face, a black die the first queued black one, and a die with none of
its colour queued comes from the generator. Faces injected in roll order come out in that order,
and every queue of valid faces can be played on (no roll ever meets a face it cannot use).
"""

from __future__ import annotations

from .state import GameState

YELLOW, BLACK = "Y", "B"

# ER-DICE-2: yellow faces -> critical, normal hit, distance points, test points
_Y_CRIT = (0, 1, 0, 0, 0, 0, 0)
_Y_HIT = (0, 0, 1, 1, 0, 0, 0)
Y_DISTANCE = (0, 1, 2, 1, 3, 0, 2)
Y_PERFECT = 5
Y_OUT_OF_AMMO = 6
Y_TEST = (0, 3, 2, 2, 1, 0, 0)
# ER-DICE-3: black faces -> search points and test points (equal in version 1).
B_SEARCH = (0, 0, 0, 2, 3, 3, 3)
# The twelve face names, yellow then black (the order of the observation's last-roll block).
FACES = tuple(f"{colour}{value}" for colour in (YELLOW, BLACK) for value in range(1, 7))


def inject(state: GameState, faces: str | list[str]) -> None:
    """Queue faces (``"Y1 B2"`` or ``["Y1", "B2"]``) to roll next, in order per colour."""
    items = faces.split() if isinstance(faces, str) else list(faces)
    for face in items:
        if face not in FACES:
            raise ValueError(f"bad die face {face!r}: faces are Y1..Y6 (yellow) and B1..B6 (black)")
    state.dice_queue.extend(items)


def _next_injected(state: GameState, colour: str) -> int:
    """Take the first queued face of ``colour`` (ER-DICE-4); 0 when the queue holds none."""
    for i, face in enumerate(state.dice_queue):
        if face[0] == colour:
            del state.dice_queue[i]
            return int(face[1])
    return 0


def roll(state: GameState, colour: str, n: int) -> list[int]:
    """Roll ``n`` dice of ``colour``; injected faces of that colour first, then the generator."""
    faces = []
    for _ in range(n):
        faces.append(_next_injected(state, colour) or 1 + state.rng.below(6))
    state.last_roll.extend(f"{colour}{v}" for v in faces)
    return faces


def combat_result(faces: list[int]) -> tuple[int, int]:
    """(critical hits, normal hits) of yellow faces (ER-DICE-2)."""
    return sum(_Y_CRIT[f] for f in faces), sum(_Y_HIT[f] for f in faces)


def yellow_test_points(faces: list[int]) -> int:
    """Test points of yellow faces (ER-DICE-2, ER-DICE-5)."""
    return sum(Y_TEST[f] for f in faces)


def search_points(faces: list[int]) -> int:
    """Search points of black faces (ER-DICE-3)."""
    return sum(B_SEARCH[f] for f in faces)
