"""Exported policies: ``training.export`` writes ONNX and TorchScript files that compute what the
checkpoint's network computes, carry their metadata, and play as bots (``OnnxBot``,
``TorchScriptBot``, ``load_bot``) without ever choosing an illegal action.

The checkpoint is a randomly initialised network (what is tested is the export, not the play);
the inputs are (observation, mask) pairs recorded from seeded random games. The whole module
skips when onnxruntime is missing; onnx and onnxscript come with it in the same extra.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from reborn_env import earth_reborn_v0
from reborn_env.bots import RandomBot
from reborn_env.bots.arena import play_match
from reborn_env.bots.exported import ExportedModelError, ExportMetadata, OnnxBot, TorchScriptBot
from reborn_env.bots.loading import load_bot
from reborn_env.games.earth_reborn.bots import EarthRebornHeuristicBot
from reborn_env.policies.artifact import CheckpointError, save_checkpoint
from reborn_env.policies.bot import PolicyBot
from reborn_env.policies.network import ILLEGAL_LOGIT, MaskedActorCritic, build_model
from training.export import ExportError, export_metadata, export_policy, main
from training.ppo.config import TrainConfig

pytest.importorskip("onnxruntime", reason="onnxruntime is not installed (the export extra)")

pytestmark = [
    # PyTorch 2.13 deprecates TorchScript, and its ONNX exporter trips over its own pytree API.
    pytest.mark.filterwarnings(r"ignore:`torch\.jit\.:DeprecationWarning"),
    pytest.mark.filterwarnings(r"ignore:`isinstance\(treespec, LeafSpec\)`:FutureWarning"),
]

ENV = "earth_reborn_v0"
OBS_SIZE, N_ACTIONS = 954, 203
HIDDEN = [32]
TOLERANCE = 1e-5
BOT_CLASSES = {"onnx": OnnxBot, "torchscript": TorchScriptBot}
SUFFIXES = {"onnx": ".onnx", "torchscript": ".ts"}


@pytest.fixture(scope="module")
def model() -> MaskedActorCritic:
    torch.manual_seed(0)
    return build_model(OBS_SIZE, N_ACTIONS, HIDDEN).eval()


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory, model: MaskedActorCritic) -> Path:
    """A policy-only checkpoint, as ``training.ppo.resume.run_payload(trainer, full=False)``
    writes it."""
    path = tmp_path_factory.mktemp("checkpoint") / "policy.pt"
    save_checkpoint(path, policy_payload(model))
    return path


def policy_payload(model: MaskedActorCritic, env: str = ENV) -> dict[str, Any]:
    return {
        "format": "reborn_env.checkpoint",
        "version": 1,
        "env": {
            "name": env,
            "version": 0,
            "obs_size": OBS_SIZE,
            "n_actions": N_ACTIONS,
            "agents": ["norad", "salemite"],
        },
        "config": TrainConfig(total_steps=1000, hidden_sizes=HIDDEN).to_dict(),
        "model": model.state_dict(),
        "global_step": 0,
        "env_steps": 0,
        "update": 0,
        "history": [],
        "wall_time": 0.0,
    }


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, checkpoint: Path) -> dict[str, Path]:
    """Format -> the checkpoint exported to it."""
    directory = tmp_path_factory.mktemp("exported")
    paths = {fmt: directory / f"policy{suffix}" for fmt, suffix in SUFFIXES.items()}
    for fmt, path in paths.items():
        export_policy(checkpoint, fmt, path)
    return paths


@pytest.fixture(scope="module")
def recorded() -> tuple[np.ndarray, np.ndarray]:
    """200 (observation, int8 mask) pairs: 100 spread over each of two seeded random games."""
    picked = [spread(record_game(seed), 100) for seed in (0, 1)]
    return np.concatenate([o for o, _ in picked]), np.concatenate([m for _, m in picked])


def spread(pairs: tuple[np.ndarray, np.ndarray], n: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` pairs evenly spaced over a game, first and last decisions included."""
    rows = np.linspace(0, len(pairs[0]) - 1, n).astype(int)
    return pairs[0][rows], pairs[1][rows]


def record_game(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Every decision's (observation, action mask) in a game of two random bots."""
    env = earth_reborn_v0.env()
    env.reset(seed=seed)
    bot = RandomBot(seed)
    observations, masks = [], []
    for _agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        observations.append(obs["observation"])
        masks.append(obs["action_mask"])
        env.step(bot.act(obs["observation"], obs["action_mask"]))
    env.close()
    return np.stack(observations), np.stack(masks)


def max_difference(
    bot: OnnxBot | TorchScriptBot,
    model: MaskedActorCritic,
    obs: np.ndarray,
    masks: np.ndarray,
    batch_size: int,
) -> float:
    """Largest |exported - network| over legal logits and values, batch by batch; checks that
    illegal logits are -1e9 in both."""
    worst = 0.0
    for start in range(0, len(obs), batch_size):
        o, m = obs[start : start + batch_size], masks[start : start + batch_size]
        legal = m != 0
        logits, values = bot.forward(o, m)
        with torch.inference_mode():
            want_logits, want_values = model(torch.from_numpy(o), torch.from_numpy(legal))
        want_logits, want_values = want_logits.numpy(), want_values.numpy()
        assert logits.shape == (len(o), N_ACTIONS) and values.shape == (len(o),)
        assert np.all(logits[~legal] == ILLEGAL_LOGIT) and np.all(want_logits[~legal] == -1e9)
        worst = max(
            worst,
            float(np.abs(logits[legal] - want_logits[legal]).max()),
            float(np.abs(values - want_values).max()),
        )
    return worst


@pytest.mark.parametrize("batch_size", [1, 7])
@pytest.mark.parametrize("fmt", ["onnx", "torchscript"])
def test_export_computes_the_network(
    fmt: str,
    batch_size: int,
    exported: dict[str, Path],
    model: MaskedActorCritic,
    recorded: tuple[np.ndarray, np.ndarray],
) -> None:
    obs, masks = recorded
    assert len(obs) == 200 and masks.dtype == np.int8
    bot = BOT_CLASSES[fmt](exported[fmt])
    assert max_difference(bot, model, obs, masks, batch_size) <= TOLERANCE


def test_torchscript_takes_bool_and_int8_masks(
    exported: dict[str, Path], recorded: tuple[np.ndarray, np.ndarray]
) -> None:
    module = torch.jit.load(str(exported["torchscript"]))
    obs, masks = (torch.from_numpy(a[:7]) for a in recorded)
    with torch.inference_mode():
        as_int8, as_bool = module(obs, masks), module(obs, masks != 0)
    assert torch.equal(as_int8[0], as_bool[0]) and torch.equal(as_int8[1], as_bool[1])


def test_onnx_graph_has_named_inputs_and_a_dynamic_batch_axis(exported: dict[str, Path]) -> None:
    import onnx

    graph = onnx.load(str(exported["onnx"])).graph

    def dims(values: Any) -> dict[str, list[str | int]]:
        return {
            v.name: [d.dim_param or d.dim_value for d in v.type.tensor_type.shape.dim]
            for v in values
        }

    assert dims(graph.input) == {
        "observation": ["batch", OBS_SIZE],
        "action_mask": ["batch", N_ACTIONS],
    }
    assert dims(graph.output) == {"logits": ["batch", N_ACTIONS], "value": ["batch"]}


def test_metadata_round_trips(exported: dict[str, Path], checkpoint: Path, tmp_path: Path) -> None:
    import onnx

    written = export_policy(checkpoint, "onnx", tmp_path / "again.onnx")
    assert written == ExportMetadata(
        env_name=ENV,
        env_version=0,
        obs_size=OBS_SIZE,
        n_actions=N_ACTIONS,
        agents=("norad", "salemite"),
        hidden_sizes=tuple(HIDDEN),
        source_checkpoint="policy.pt",
    )
    props = {p.key: json.loads(p.value) for p in onnx.load(str(exported["onnx"])).metadata_props}
    assert props == written.to_dict()
    extra = {"meta.json": ""}
    torch.jit.load(str(exported["torchscript"]), _extra_files=extra)
    assert json.loads(extra["meta.json"]) == written.to_dict()
    for fmt, bot_class in BOT_CLASSES.items():
        assert bot_class(exported[fmt]).metadata == written


def test_agents_come_from_the_registry_for_older_checkpoints(model: MaskedActorCritic) -> None:
    payload = policy_payload(model)
    del payload["env"]["agents"]
    assert export_metadata(payload, "old.pt").agents == ("norad", "salemite")
    payload["env"]["name"] = "chess_v6"
    with pytest.raises(ExportError, match="records no agents, and unknown env 'chess_v6'"):
        export_metadata(payload, "old.pt")


@pytest.mark.parametrize("greedy", [False, True])
@pytest.mark.parametrize("fmt", ["onnx", "torchscript"])
def test_bots_play_only_legal_actions(fmt: str, greedy: bool, exported: dict[str, Path]) -> None:
    bot = LegalityCheck(BOT_CLASSES[fmt](exported[fmt], greedy=greedy, seed=0))
    result = play_match(earth_reborn_v0.env, bot, RandomBot(0), 1, 0)
    assert result.overall.games == 2 and bot.decisions > 0


class LegalityCheck:
    """A bot wrapper that asserts every action it passes on is legal, and counts them."""

    def __init__(self, bot: OnnxBot | TorchScriptBot) -> None:
        self.bot, self.decisions = bot, 0

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        action = self.bot.act(observation, action_mask)
        assert action_mask[action] == 1
        self.decisions += 1
        return action

    def reset(self) -> None:
        self.bot.reset()


@pytest.mark.parametrize("fmt", ["onnx", "torchscript"])
def test_probabilities_and_seeded_sampling_match_the_checkpoint_bot(
    fmt: str,
    exported: dict[str, Path],
    checkpoint: Path,
    recorded: tuple[np.ndarray, np.ndarray],
) -> None:
    reference, bot = PolicyBot(checkpoint), BOT_CLASSES[fmt](exported[fmt])
    obs, masks = recorded
    for o, m in zip(obs[::20], masks[::20], strict=True):
        probs = bot.probabilities(o, m)
        assert probs.dtype == np.float64 and np.all(probs[m == 0] == 0.0)
        assert probs.sum() == pytest.approx(1.0)
        np.testing.assert_allclose(probs, reference.probabilities(o, m), atol=1e-6)
    first, second = (BOT_CLASSES[fmt](exported[fmt], seed=3) for _ in range(2))
    assert [first.act(o, m) for o, m in zip(obs, masks, strict=True)] == [
        second.act(o, m) for o, m in zip(obs, masks, strict=True)
    ]


def test_onnx_bot_runs_without_torch(exported: dict[str, Path]) -> None:
    script = (
        "import sys; sys.modules['torch'] = None\n"
        "import numpy as np\n"
        "from reborn_env.bots.exported import OnnxBot\n"
        f"bot = OnnxBot({str(exported['onnx'])!r}, seed=0)\n"
        f"mask = np.zeros({N_ACTIONS}, np.int8); mask[[3, 55]] = 1\n"
        f"assert bot.act(np.zeros({OBS_SIZE}, np.float32), mask) in (3, 55)\n"
        "assert 'torch' not in {m.split('.')[0] for m, v in sys.modules.items() if v}\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_load_bot_dispatches_on_the_spec(
    exported: dict[str, Path], checkpoint: Path, tmp_path: Path
) -> None:
    assert isinstance(load_bot("random", seed=1), RandomBot)
    assert isinstance(load_bot("heuristic", seed=1), EarthRebornHeuristicBot)
    assert isinstance(load_bot(str(exported["onnx"]), greedy=True), OnnxBot)
    assert isinstance(load_bot(str(checkpoint)), PolicyBot)
    for suffix in (".ts", ".torchscript", ".JIT", ".pt"):
        path = tmp_path / f"policy{suffix}"
        shutil.copy(exported["torchscript"], path)
        assert isinstance(load_bot(str(path), seed=0), TorchScriptBot), suffix
    with pytest.raises(ValueError, match="'random', 'heuristic' or a policy file ending in .onnx"):
        load_bot("minimax")
    with pytest.raises(ValueError, match="no heuristic bot for env 'chess_v6'"):
        load_bot("heuristic", env_name="chess_v6")


@pytest.mark.parametrize("suffix", [".onnx", ".ts", ".pt"])
def test_missing_file_and_wrong_env_are_refused(
    suffix: str, exported: dict[str, Path], checkpoint: Path, tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match="no such"):
        load_bot(str(tmp_path / f"missing{suffix}"))
    path = {".onnx": exported["onnx"], ".ts": exported["torchscript"], ".pt": checkpoint}[suffix]
    with pytest.raises(ValueError, match="(exported for|for another) env"):
        load_bot(str(path), env_name="chess_v6")


def test_files_without_metadata_are_refused(exported: dict[str, Path], tmp_path: Path) -> None:
    import onnx

    proto = onnx.load(str(exported["onnx"]))
    del proto.metadata_props[:]
    onnx.save(proto, str(tmp_path / "bare.onnx"))
    with pytest.raises(ExportedModelError, match="no export metadata format, version"):
        OnnxBot(tmp_path / "bare.onnx")
    torch.jit.save(torch.jit.load(str(exported["torchscript"])), str(tmp_path / "bare.ts"))
    with pytest.raises(ExportedModelError, match="not written by training.export"):
        TorchScriptBot(tmp_path / "bare.ts")
    (tmp_path / "junk.onnx").write_bytes(b"not a model")
    with pytest.raises(ExportedModelError, match="not a loadable ONNX model"):
        OnnxBot(tmp_path / "junk.onnx")
    with pytest.raises(ExportedModelError, match="not a loadable TorchScript archive"):
        TorchScriptBot(tmp_path / "junk.onnx")


def test_export_errors(checkpoint: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(ExportError, match="unknown export format 'tflite'"):
        export_policy(checkpoint, "tflite", tmp_path / "p.tflite")
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(CheckpointError, match=r"junk\.pt: "):
        export_policy(tmp_path / "junk.pt", "onnx", tmp_path / "p.onnx")
    assert main(["--checkpoint", str(tmp_path / "nope.pt"), "--format", "onnx", "--out", "x"]) == 2
    assert "no such checkpoint file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--checkpoint", str(checkpoint), "--format", "tflite", "--out", "x"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.pt"]


def test_a_failed_check_leaves_the_previous_file(
    checkpoint: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "policy.ts"
    out.write_bytes(b"previous")
    monkeypatch.setattr("training.export.VERIFY_TOLERANCE", -1.0)
    with pytest.raises(ExportError, match="differs from the checkpoint's"):
        export_policy(checkpoint, "torchscript", out)
    assert out.read_bytes() == b"previous"
    assert [p.name for p in tmp_path.iterdir()] == ["policy.ts"]


def test_cli_exports(checkpoint: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "cli.ts"
    assert (
        main(["--checkpoint", str(checkpoint), "--format", "torchscript", "--out", str(out)]) == 0
    )
    assert "earth_reborn_v0 v0, obs_size 954, n_actions 203" in capsys.readouterr().out
    assert TorchScriptBot(out, expect_env=ENV).metadata.source_checkpoint == "policy.pt"


def test_the_shipped_haven_policy_exports_and_plays_both_characters(tmp_path: Path) -> None:
    """A haven checkpoint exports to ONNX like an Earth Reborn one; one exported bot plays both
    characters of haven_v0 (its observation says which) and only ever picks legal actions."""
    from reborn_env import haven_v0

    out = tmp_path / "haven.onnx"
    export_policy(Path(__file__).resolve().parents[2] / "checkpoints/haven_ppo.pt", "onnx", out)
    bot = load_bot(str(out), "haven_v0")
    assert isinstance(bot, OnnxBot)
    env = haven_v0.env()
    for seed in range(2):
        env.reset(seed=seed)
        bot.reset()
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            action = bot.act(obs["observation"], obs["action_mask"])
            assert obs["action_mask"][action] == 1, f"{agent} chose an illegal action"
            env.step(action)
        assert env.unwrapped.game.outcome in ("win", "loss")
