"""Bradley-Terry ratings from game results: Hunter's MM fit, Elo scale, bootstrap intervals.

Why: a win-rate matrix says who beat whom; a rating puts every bot on one line and says how sure
we are. The model is Bradley-Terry's, P(i beats j) = g_i / (g_i + g_j), fitted to maximum
likelihood by Hunter's minorization-maximization iteration ("MM algorithms for generalized
Bradley-Terry models", Ann. Statist. 32(1), 2004, eq. 4), as OpenSpiel's ``evaluation/elo.cc``
does (finished by Newton steps where MM is slow, :func:`fit_strengths`): a draw counts half a
win to each side, and ``smoothing`` adds that fraction of a win to every ordered pair that met,
so a bot that never won (or never lost) keeps a finite rating.
Ratings are reported on the Elo scale, 400 * log10(g), shifted so that the anchor is 0; the 95%
interval of each comes from refitting resampled games (the percentile bootstrap, seeded).

Pure numpy; a result is ``(a, b, score)``: bot ``a`` against bot ``b``, ``score`` 1 (a won),
0.5 (a draw) or 0 (b won).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

ELO_SCALE = 400.0
"""Elo points per factor of 10 in Bradley-Terry strength."""
SMOOTHING = 0.1
"""Pseudo-wins added to each ordered pair of bots that met (OpenSpiel's ``smoothing_factor``)."""


def results_matrix(results: Iterable[tuple[str, str, float]], names: Sequence[str]) -> np.ndarray:
    """``W[i, j]``: the wins of ``names[i]`` over ``names[j]``, a draw counting half to each;
    ValueError for a bot not in ``names``, a bot against itself or a score not 0, 0.5 or 1."""
    index = {name: i for i, name in enumerate(names)}
    wins = np.zeros((len(names), len(names)))
    for a, b, score in results:
        for bot in (a, b):
            if bot not in index:
                raise ValueError(f"result of {bot!r}, who is not among {', '.join(names)}")
        if a == b:
            raise ValueError(f"a result of {a!r} against itself")
        if score not in (0, 0.5, 1):
            raise ValueError(f"score {score!r} of {a!r} against {b!r}: expected 0, 0.5 or 1")
        wins[index[a], index[b]] += score
        wins[index[b], index[a]] += 1 - score
    return wins


def fit_strengths(
    wins: np.ndarray,
    smoothing: float = SMOOTHING,
    tolerance: float = 1e-10,
    mm_iterations: int = 500,
) -> np.ndarray:
    """Bradley-Terry strengths (summing to 1) maximising the likelihood of ``wins`` (``W[i, j]``:
    wins of i over j): Hunter's MM update g_i <- W_i / sum_j N_ij / (g_i + g_j), then, where the
    maximum is finite (every bot beat, directly or through others, every bot that beat it),
    Newton steps on the log-strengths to that same maximum.

    Why both: MM always climbs the likelihood but converges linearly, and slowly when one bot
    almost never wins: with a tenth of a win in a thousand games it still moved 24 Elo between
    its 10,000th and 50,000th iterations. Newton's method converges quadratically from MM's
    point. Without a finite maximum (a bot that never won, no smoothing) MM's strengths go to 0,
    held at the smallest float as OpenSpiel holds them."""
    wins = np.asarray(wins, dtype=float)
    n = len(wins)
    if wins.shape != (n, n) or n < 2:
        raise ValueError(f"wins must be a square matrix of at least 2 bots, got {wins.shape}")
    if (wins < 0).any() or not np.isfinite(wins).all():
        raise ValueError("wins must be finite and not negative")
    met = (wins + wins.T) > 0
    w = np.where(met, wins + smoothing, 0.0)
    np.fill_diagonal(w, 0.0)
    games = w + w.T
    total = w.sum(axis=1)
    if (total == 0).all():
        raise ValueError("no games were played")
    gamma = np.full(n, 1.0 / n)
    tiny = np.finfo(float).tiny
    for _ in range(mm_iterations):
        ratios = games / (gamma[:, None] + gamma[None, :])
        new = total / ratios.sum(axis=1)
        new = np.maximum(new / new.sum(), tiny)
        done = np.abs(np.log(new / gamma)).max() < tolerance
        gamma = new
        if done:
            return gamma
    if not _strongly_connected(w > 0):
        return gamma
    theta = _newton(w, np.log(gamma), tolerance)
    strengths = np.exp(theta - theta.max())
    return strengths / strengths.sum()


def _strongly_connected(beat: np.ndarray) -> bool:
    """Whether every bot reaches every other along "beat" edges (Zermelo's condition for a
    finite maximum of the likelihood)."""
    reach = beat | np.eye(len(beat), dtype=bool)
    for _ in range(len(beat)):
        reach = reach | ((reach.astype(int) @ reach.astype(int)) > 0)
    return bool(reach.all())


def _newton(w: np.ndarray, theta: np.ndarray, tolerance: float) -> np.ndarray:
    """The log-strengths maximising sum W_ij log P(i beats j), by Newton's method from ``theta``
    (the first bot's held fixed, since only differences count), each step halved until the
    likelihood does not fall."""
    games, total = w + w.T, w.sum(axis=1)

    def log_likelihood(t: np.ndarray) -> float:
        return float(-(w * np.logaddexp(0.0, t[None, :] - t[:, None])).sum())

    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # P(i beats j)
        gradient = total - (games * p).sum(axis=1)
        if np.abs(gradient).max() < tolerance * max(1.0, total.max()):
            break
        weight = games * p * p.T
        laplacian = np.diag(weight.sum(axis=1)) - weight
        step = np.zeros_like(theta)
        step[1:] = np.linalg.lstsq(laplacian[1:, 1:], gradient[1:], rcond=None)[0]
        before, size = log_likelihood(theta), 1.0
        while log_likelihood(theta + size * step) < before and size > 1e-9:
            size /= 2
        theta = theta + size * step
    return theta


def elo(strengths: np.ndarray, anchor: int = 0) -> np.ndarray:
    """Strengths on the Elo scale, the bot at index ``anchor`` rated 0."""
    points = ELO_SCALE * np.log10(np.asarray(strengths, dtype=float))
    return points - points[anchor]


@dataclass(frozen=True)
class Ratings:
    """Each bot's Elo-scaled rating with its 95% bootstrap interval, in the order of ``names``."""

    names: list[str]
    rating: list[float]
    low: list[float]
    high: list[float]
    anchor: str
    resamples: int

    def ranked(self) -> list[int]:
        """Indices of the bots, best rating first."""
        return sorted(range(len(self.names)), key=lambda i: -self.rating[i])

    def to_json(self) -> dict[str, object]:
        return {
            "anchor": self.anchor,
            "resamples": self.resamples,
            "bots": {
                name: {"rating": r, "low": lo, "high": hi}
                for name, r, lo, hi in zip(
                    self.names, self.rating, self.low, self.high, strict=True
                )
            },
        }


def rate(
    blocks: Sequence[tuple[str, str, Sequence[float]]],
    names: Sequence[str],
    anchor: str,
    resamples: int = 200,
    seed: int = 0,
    smoothing: float = SMOOTHING,
) -> Ratings:
    """The ratings of ``names`` from ``blocks`` of games, each ``(a, b, scores of a)``, with 95%
    intervals from ``resamples`` bootstrap refits: each block's games are drawn again with
    replacement (a multinomial over its wins, draws and losses), seeded by ``seed``."""
    names = list(names)
    at = names.index(anchor)
    counts = []
    for a, b, scores in blocks:
        s = np.asarray(scores, dtype=float)
        if len(s):
            counts.append((a, b, [int((s == 1).sum()), int((s == 0.5).sum()), int((s == 0).sum())]))
    point = elo(fit_strengths(counts_matrix(counts, names), smoothing), at)
    rng = np.random.default_rng(seed)
    draws = np.empty((resamples, len(names)))
    for r in range(resamples):
        again = [(a, b, rng.multinomial(sum(c), np.asarray(c) / sum(c))) for a, b, c in counts]
        draws[r] = elo(fit_strengths(counts_matrix(again, names), smoothing), at)
    low, high = np.percentile(draws, [2.5, 97.5], axis=0) if resamples else (point, point)
    return Ratings(names, point.tolist(), low.tolist(), high.tolist(), anchor, resamples)


def counts_matrix(
    counts: Sequence[tuple[str, str, Sequence[int]]], names: Sequence[str]
) -> np.ndarray:
    """:func:`results_matrix` of games given as counts, ``(a, b, [wins, draws, losses] of a)``."""
    index = {name: i for i, name in enumerate(names)}
    wins = np.zeros((len(names), len(names)))
    for a, b, (won, drawn, lost) in counts:
        i, j = index[a], index[b]
        wins[i, j] += won + drawn / 2
        wins[j, i] += lost + drawn / 2
    return wins
