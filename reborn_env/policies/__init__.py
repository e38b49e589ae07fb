"""Policies in the library: the policy file every algorithm writes, its network and its bots.

``artifact`` reads, verifies, upgrades and writes policy files (``docs/policy_artifact.md``),
``network`` holds the inference networks a file names, ``bot`` plays a file (one game or a batch).
Each of them needs torch (the ``train`` extra), so this package imports none of them: the base
install imports ``reborn_env`` and plays ONNX policies without torch.
"""
