"""Play and watch in the browser: a page served on 127.0.0.1 that draws any registered game.

Run ``python -m reborn_env.web`` (:mod:`.__main__`); :mod:`.session` holds one tab's game,
:mod:`.server` the Starlette app and its limits, ``static/`` the page (docs/web.md).
"""
