"""A policy file as a bot: plays any env of the registry from a policy artifact.

It implements the bot interface of ``reborn_env.bots`` (``act(observation, action_mask) -> int``
and ``reset()``), so the arena, the evaluation CLI and front-ends can pit a policy file against
scripted bots or other policies; :class:`PolicyBatch` is the batched interface. The network is the
one the file names (:func:`.artifact.policy_network`), on the CPU, in inference mode.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import torch

from .artifact import load_checkpoint, policy_network
from .network import to_host, to_network


class PolicyBot:
    """Plays the policy of a checkpoint: samples from it, or takes its most likely action.

    ``path_or_payload`` is a checkpoint path or a payload already read by ``load_checkpoint``.
    ``seed`` seeds the sampling (``None``: fresh entropy); ``greedy`` plays the argmax instead.
    """

    def __init__(
        self,
        path_or_payload: str | os.PathLike[str] | dict[str, Any],
        greedy: bool = False,
        seed: int | None = None,
    ) -> None:
        payload = (
            path_or_payload
            if isinstance(path_or_payload, dict)
            else load_checkpoint(path_or_payload)
        )
        if torch.get_num_threads() > 1:
            torch.set_num_threads(1)
        self.env_name: str = payload["env"]["name"]
        self.obs_size: int = payload["env"]["obs_size"]
        self.n_actions: int = payload["env"]["n_actions"]
        self.greedy = greedy
        shown_as = "checkpoint" if isinstance(path_or_payload, dict) else str(path_or_payload)
        self.model = policy_network(payload, shown_as)
        self._generator = torch.Generator()
        if seed is None:
            self._generator.seed()
        else:
            self._generator.manual_seed(seed)

    def reset(self) -> None:
        """Start of a game: nothing to forget (the policy has no memory; sampling continues)."""

    def rng_state(self) -> torch.Tensor:
        """Its sampling generator's state."""
        return self._generator.get_state()

    def set_rng_state(self, state: torch.Tensor) -> None:
        """Put back what :meth:`rng_state` returned."""
        self._generator.set_state(state)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action for this decision, sampled from the policy (or its argmax if greedy)."""
        logits = self._masked_logits(observation, action_mask)
        if self.greedy:
            action = int(torch.argmax(logits))
        else:
            probs = torch.softmax(logits.double(), dim=-1)
            action = int(torch.multinomial(probs, 1, generator=self._generator))
        if not action_mask[action]:
            raise RuntimeError(
                f"the policy chose illegal action {action}: the network's masked logits must put "
                "illegal actions at -1e9"
            )
        return action

    def probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The policy's probability of each action: float64 ``(n_actions,)``, 0 where illegal."""
        logits = self._masked_logits(observation, action_mask)
        return torch.softmax(logits.double(), dim=-1).numpy()

    def _masked_logits(self, observation: np.ndarray, action_mask: np.ndarray) -> torch.Tensor:
        obs = np.asarray(observation, dtype=np.float32).reshape(-1)
        mask = np.asarray(action_mask).reshape(-1) != 0
        if obs.shape != (self.obs_size,) or mask.shape != (self.n_actions,):
            raise ValueError(
                f"observation of size {obs.size} and action mask of size {mask.size}; this "
                f"policy ({self.env_name}) takes {self.obs_size} and {self.n_actions}"
            )
        if not mask.any():
            raise ValueError("the action mask has no legal action: this bot is not to move")
        with torch.inference_mode():
            logits, _ = self.model(torch.from_numpy(obs)[None], torch.from_numpy(mask)[None])
        return logits[0]


class PolicyBatch:
    """A checkpoint's policy (or a network) for many games at once: the batched bot interface
    (``reset(i)``, ``act(slots, obs, mask)``) of ``reborn_env.bots.batched``, one forward pass for
    all the rows, on whatever device the network lives; sampled with its own seeded generator,
    or greedy."""

    def __init__(
        self,
        path_or_payload: str | os.PathLike[str] | dict[str, Any] | torch.nn.Module,
        greedy: bool = False,
        seed: int | None = None,
    ) -> None:
        if isinstance(path_or_payload, torch.nn.Module):
            self.model = path_or_payload
        else:
            self.model = PolicyBot(path_or_payload, greedy, seed).model
        self.greedy = greedy
        self._generator = torch.Generator()
        if seed is None:
            self._generator.seed()
        else:
            self._generator.manual_seed(seed)

    def reset(self, i: int) -> None:
        """Slot ``i`` starts a game: nothing to forget."""

    def rng_state(self) -> list[torch.Tensor]:
        """Its sampling generator's state (one generator serves every slot)."""
        return [self._generator.get_state()]

    def set_rng_state(self, state: list[torch.Tensor]) -> None:
        """Put back what :meth:`rng_state` returned."""
        self._generator.set_state(state[0])

    def act(self, slots: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """int64 [k]: the policy's action for each row (sampled, or its argmax if greedy)."""
        legal = torch.from_numpy(np.asarray(mask) != 0)
        rows = torch.from_numpy(np.asarray(obs, dtype=np.float32))
        with torch.inference_mode():
            logits, _ = self.model(to_network(self.model, rows), to_network(self.model, legal))
        logits = to_host(logits)
        if self.greedy:
            return logits.argmax(-1).numpy()
        probs = torch.softmax(logits.double(), dim=-1)
        return torch.multinomial(probs, 1, generator=self._generator)[:, 0].numpy()
