"""Shared fixtures of the web tests: the app behind a test client, and a websocket to it."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

from reborn_env.web.server import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette 1.x warns that it will move to httpx2
    from starlette.testclient import TestClient


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client
