"""One string names any bot: a scripted one or a policy file, for CLIs, front-ends and configs.

Why: whatever picks the players (an arena script, a GUI's seat menu, a tournament config) should
not need to know how each kind of bot is built. :func:`load_bot` takes:

- ``"random"``: :class:`~reborn_env.bots.RandomBot`;
- ``"heuristic"``: the game's scripted bot, as its registration names it
  (``reborn_env.core.registry.get(env_name).make_bot("heuristic", seed)``), and any other bot
  the game registers by its name (``GameSpec.bots``);
- ``"ismcts"`` or ``"ismcts:key=value,..."``: the search bot of :mod:`.ismcts` (options: its
  budget, ``sims`` or ``ms`` a move, its ``rollout`` policy, ``c``), for any game that offers
  public views (``GameSpec.public_view``, ``GameSpec.determinizer``);
- ``*.onnx``: :class:`~reborn_env.bots.exported.OnnxBot` (needs onnxruntime, not torch);
- ``*.ts``, ``*.torchscript``, ``*.jit``: :class:`~reborn_env.bots.exported.TorchScriptBot`;
- ``*.pt``: a policy file (``docs/policy_artifact.md``), played by
  :class:`reborn_env.policies.bot.PolicyBot` (imported only then, with torch), unless the file
  is a TorchScript archive: PyTorch's own docs name those ``.pt`` too, so a ``.pt`` zip archive
  holding ``constants.pkl`` (which ``torch.jit.save`` writes and ``torch.save`` does not) is
  played by ``TorchScriptBot``.

Policy files are checked to be for ``env_name``; suffixes are matched case-insensitively.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from ..core import registry
from .base import Bot, RandomBot
from .exported import OnnxBot, TorchScriptBot

ONNX_SUFFIXES = (".onnx",)
TORCHSCRIPT_SUFFIXES = (".ts", ".torchscript", ".jit")
CHECKPOINT_SUFFIXES = (".pt",)
# Bots for any game, by name: "module:function(options, env_name, seed)", imported when asked
# for (the search bot plays its rollouts with the batched bots, which load bots through here).
GENERIC_BOTS = {"ismcts": f"{__package__}.ismcts:from_spec"}


def load_bot(
    spec: str,
    env_name: str | None = None,
    seed: int | None = None,
    greedy: bool = False,
    scenario: str | None = None,
) -> Bot:
    """The bot named by ``spec`` to play ``env_name``, a registered game (None: the default
    game, ``registry.default_name()``); ``ValueError`` for a spec naming none.

    ``seed`` seeds the bot's choices (``None``: fresh entropy); ``greedy`` makes a policy play its
    most likely action instead of sampling (scripted bots ignore it). ``scenario`` (None: the
    game's default) is the one the game's own bots read the observation of; a policy reads any
    that fits it. A policy file that is missing, unreadable or for another env raises the
    loader's error, a ``ValueError`` too.
    """
    if env_name is None:
        env_name = registry.default_name()
    if spec == "random":
        return RandomBot(seed)
    if spec == "heuristic":
        return _heuristic_bot(env_name, seed, scenario)
    if env_name in registry.names() and spec in registry.get(env_name).bots:
        return registry.get(env_name).make_bot(spec, seed, scenario)
    name, _, options = spec.partition(":")
    if name in GENERIC_BOTS:
        return registry.resolve(GENERIC_BOTS[name])(options, env_name, seed)
    suffix = Path(spec).suffix.lower()
    if suffix in ONNX_SUFFIXES:
        return OnnxBot(spec, greedy=greedy, seed=seed, expect_env=env_name)
    if suffix in TORCHSCRIPT_SUFFIXES or (
        suffix in CHECKPOINT_SUFFIXES and is_torchscript_archive(spec)
    ):
        return TorchScriptBot(spec, greedy=greedy, seed=seed, expect_env=env_name)
    if suffix in CHECKPOINT_SUFFIXES:
        return _checkpoint_bot(spec, env_name, seed, greedy)
    raise ValueError(
        f"bot spec {spec!r}: expected 'random', 'heuristic' or a policy file ending in "
        f"{', '.join(ONNX_SUFFIXES)} (ONNX), {', '.join(TORCHSCRIPT_SUFFIXES)} (TorchScript) or "
        f"{', '.join(CHECKPOINT_SUFFIXES)} (training checkpoint), or a bot for any game: "
        f"{', '.join(repr(f'{n}[:options]') for n in GENERIC_BOTS)}"
    )


def is_torchscript_archive(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a ``torch.jit.save`` archive (False for ``torch.save`` files)."""
    if not zipfile.is_zipfile(path):
        return False
    with zipfile.ZipFile(path) as archive:
        return any(name.endswith("/constants.pkl") for name in archive.namelist())


def _heuristic_bot(env_name: str, seed: int | None, scenario: str | None = None) -> Bot:
    """The scripted bot the game registers as ``"heuristic"``; the error lists the games that
    have one."""
    games = [name for name in registry.names() if "heuristic" in registry.get(name).bots]
    if env_name not in games:
        raise ValueError(
            f"no heuristic bot for env {env_name!r}; there is one for {', '.join(games)}"
        )
    return registry.get(env_name).make_bot("heuristic", seed, scenario)


def _checkpoint_bot(path: str, env_name: str, seed: int | None, greedy: bool) -> Bot:
    from ..policies.artifact import load_checkpoint
    from ..policies.bot import PolicyBot

    return PolicyBot(load_checkpoint(path, expect_env=env_name), greedy=greedy, seed=seed)
