"""The progress bar of long phases (training/common/progress_bar.py): done/total, rate, time
left."""

from __future__ import annotations

import io

from training.common.progress_bar import ProgressBar


def test_a_logged_bar_writes_a_line_when_due_and_one_at_the_end():
    stream = io.StringIO()
    bar = ProgressBar("imitation", 10, stream=stream, every=3600.0)
    bar.update(3)  # not due yet: nothing written
    assert stream.getvalue() == ""
    bar.update(10)
    bar.close()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("imitation [" + "#" * 24 + "] 10/10 games")
    assert "games/s" in lines[0] and "left 0 s" in lines[0]


def test_the_line_shows_the_rate_and_the_time_left():
    bar = ProgressBar("evaluation", 100, stream=io.StringIO())
    bar.done = 25
    text = bar.text(bar.start + 5.0)
    assert "25/100 games" in text and "5.0 games/s" in text and "left 15 s" in text
    assert "[######------------------]" in text
