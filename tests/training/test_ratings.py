"""training.bench.ratings: the Bradley-Terry fit against cases solved by hand and by the
likelihood's
own conditions, the properties a rating must have, and the bootstrap's intervals."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from training.bench.ratings import (
    ELO_SCALE,
    counts_matrix,
    elo,
    fit_strengths,
    rate,
    results_matrix,
)


def log_likelihood(wins: np.ndarray, strengths: np.ndarray) -> float:
    """sum over ordered pairs of W_ij * log(g_i / (g_i + g_j))."""
    g = np.asarray(strengths, dtype=float)
    p = g[:, None] / (g[:, None] + g[None, :])
    off = ~np.eye(len(g), dtype=bool)
    return float((wins[off] * np.log(p[off])).sum())


def test_two_bots_strength_ratio_is_the_wins_ratio() -> None:
    """With two bots the maximum likelihood is P(a beats b) = a's share of the wins."""
    wins = np.array([[0.0, 30.0], [10.0, 0.0]])
    g = fit_strengths(wins, smoothing=0)
    assert g[0] / g[1] == pytest.approx(3.0, rel=1e-9)
    assert elo(g, anchor=1)[0] == pytest.approx(ELO_SCALE * np.log10(3.0), rel=1e-9)


def test_draws_count_half_to_each_side() -> None:
    results = [("a", "b", 1)] * 3 + [("a", "b", 0.5)] * 2 + [("b", "a", 1)]
    wins = results_matrix(results, ["a", "b"])
    assert wins.tolist() == [[0.0, 4.0], [2.0, 0.0]]
    g = fit_strengths(wins, smoothing=0)
    assert g[0] / g[1] == pytest.approx(2.0, rel=1e-9)


def test_three_bots_solve_the_likelihood_equations_and_beat_a_fine_grid() -> None:
    """At the maximum each bot's expected wins equal its wins (the score equations), and no
    strength vector on a fine grid around it is more likely."""
    wins = np.array([[0.0, 14.0, 19.0], [6.0, 0.0, 12.0], [1.0, 8.0, 0.0]])
    g = fit_strengths(wins, smoothing=0)
    games = wins + wins.T
    expected = (games * g[:, None] / (g[:, None] + g[None, :])).sum(axis=1)
    assert expected == pytest.approx(wins.sum(axis=1), rel=1e-8)
    best = log_likelihood(wins, g)
    log_g = np.log(g / g[0])
    for d1, d2 in itertools.product(np.linspace(-0.3, 0.3, 25), repeat=2):
        trial = np.exp([0.0, log_g[1] + d1, log_g[2] + d2])
        assert log_likelihood(wins, trial) <= best + 1e-9


def test_a_bot_that_almost_never_wins_is_fitted_to_the_maximum() -> None:
    """A tenth of a win in a thousand games (smoothing against a bot that always loses): MM alone
    crawls there; the fit still solves the score equations, from any number of MM steps."""
    wins = np.array([[0.0, 1000, 1000, 1000], [0, 0, 600, 500], [0, 400, 0, 450], [0, 500, 550, 0]])
    g = fit_strengths(wins, smoothing=0.1)
    smoothed = wins + 0.1 * (1 - np.eye(4))
    games = smoothed + smoothed.T
    expected = (games * g[:, None] / (g[:, None] + g[None, :])).sum(axis=1)
    assert expected == pytest.approx(smoothed.sum(axis=1), rel=1e-8)
    assert fit_strengths(wins, 0.1, mm_iterations=1) == pytest.approx(g, rel=1e-6)


def test_without_a_finite_maximum_the_loser_goes_to_zero() -> None:
    """No smoothing and a bot that never won: its strength is held at the smallest float."""
    wins = np.array([[0.0, 6.0, 5.0], [4.0, 0.0, 7.0], [0.0, 0.0, 0.0]])
    g = fit_strengths(wins, smoothing=0)
    assert g[2] < 1e-30 and g[0] > g[1] > g[2]


def test_a_bot_that_always_loses_keeps_the_others_order() -> None:
    wins = np.array([[0.0, 12.0, 15.0], [8.0, 0.0, 11.0], [5.0, 9.0, 0.0]])
    order = np.argsort(-fit_strengths(wins))
    loser = np.zeros((4, 4))
    loser[:3, :3] = wins
    loser[:3, 3] = 10.0  # everyone beats the newcomer every time
    with_loser = fit_strengths(loser)
    assert np.argsort(-with_loser[:3]).tolist() == order.tolist()
    assert with_loser[3] < with_loser[:3].min()


def test_identical_bots_get_equal_ratings() -> None:
    """Bots 1 and 2 met everyone alike, and each other evenly."""
    wins = np.array([[0.0, 7.0, 7.0], [13.0, 0.0, 10.0], [13.0, 10.0, 0.0]])
    g = fit_strengths(wins)
    assert g[1] == pytest.approx(g[2], rel=1e-9)
    assert g[1] > g[0]


def test_smoothing_keeps_a_bot_that_never_won_finite() -> None:
    wins = np.array([[0.0, 20.0], [0.0, 0.0]])
    assert np.isfinite(elo(fit_strengths(wins))).all()
    assert elo(fit_strengths(wins, smoothing=0.1), 1)[0] < elo(fit_strengths(wins, 0.01), 1)[0]


def test_bad_results_are_refused_naming_them() -> None:
    with pytest.raises(ValueError, match="'c'"):
        results_matrix([("a", "c", 1)], ["a", "b"])
    with pytest.raises(ValueError, match="against itself"):
        results_matrix([("a", "a", 1)], ["a", "b"])
    with pytest.raises(ValueError, match="score 2"):
        results_matrix([("a", "b", 2)], ["a", "b"])
    with pytest.raises(ValueError, match="square"):
        fit_strengths(np.zeros((2, 3)))


def test_counts_matrix_agrees_with_results_matrix() -> None:
    results = [("a", "b", 1)] * 4 + [("a", "b", 0.5)] * 3 + [("a", "b", 0)] * 2
    results += [("b", "c", 1)] * 5 + [("b", "c", 0)]
    counts = [("a", "b", [4, 3, 2]), ("b", "c", [5, 0, 1])]
    names = ["a", "b", "c"]
    assert (counts_matrix(counts, names) == results_matrix(results, names)).all()


def test_rate_anchors_and_brackets_each_rating_reproducibly() -> None:
    rng = np.random.default_rng(3)
    strengths = {"a": 1.0, "b": 2.0, "c": 4.0}
    blocks = []
    for x, y in itertools.permutations(strengths, 2):
        p = strengths[x] / (strengths[x] + strengths[y])
        blocks.append((x, y, rng.choice([1.0, 0.0], size=300, p=[p, 1 - p]).tolist()))
    ratings = rate(blocks, list(strengths), "a", resamples=100, seed=5)
    assert ratings.rating[0] == 0 and ratings.low[0] == ratings.high[0] == 0
    assert [ratings.names[i] for i in ratings.ranked()] == ["c", "b", "a"]
    for r, lo, hi in zip(ratings.rating, ratings.low, ratings.high, strict=True):
        assert lo <= r <= hi
    # c is 4x a: 400 * log10(4) ~ 241 Elo, within its interval
    assert ratings.low[2] < ELO_SCALE * np.log10(4.0) < ratings.high[2]
    again = rate(blocks, list(strengths), "a", resamples=100, seed=5)
    assert again == ratings
    other = rate(blocks, list(strengths), "a", resamples=100, seed=6)
    assert other.rating == ratings.rating and other.low != ratings.low
