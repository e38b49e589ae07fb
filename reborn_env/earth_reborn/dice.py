"""Yellow combat dice and black search dice (ER-DICE-1..5), rolled from the state's one generator.

Faces are numbered 1..6 and named ``Y1``..``Y6`` / ``B1``..``B6``. Tests inject the next faces with
:func:`inject` (ER-DICE-4); an injected face of the wrong colour is an error, not a silent reroll.
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


def inject(state: GameState, faces: str | list[str]) -> None:
    """Queue faces (``"Y1 Y2"`` or ``["Y1", "Y2"]``) to roll next, in order (ER-DICE-4)."""
    items = faces.split() if isinstance(faces, str) else list(faces)
    for face in items:
        if len(face) != 2 or face[0] not in "YB" or face[1] not in "123456":
            raise ValueError(f"bad die face {face!r}: faces are Y1..Y6 (yellow) and B1..B6 (black)")
    state.dice_queue.extend(items)


def roll(state: GameState, colour: str, n: int) -> list[int]:
    """Roll ``n`` dice of ``colour``; injected faces first, then the seeded generator."""
    faces = []
    for _ in range(n):
        if state.dice_queue:
            face = state.dice_queue.pop(0)
            if face[0] != colour:
                raise ValueError(
                    f"injected die {face} is not {'yellow' if colour == YELLOW else 'black'}: "
                    f"the engine is rolling a {colour} die here"
                )
            value = int(face[1])
        else:
            value = 1 + state.rng.below(6)
        faces.append(value)
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
