"""The server listens on 127.0.0.1 only unless the user names another address (with a warning)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reborn_env.web import __main__ as web_main

LOOPBACK_HEX = "0100007F"  # 127.0.0.1 as /proc/net/tcp writes it
LISTEN = "0A"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _listening_addresses(port: int) -> list[str]:
    """The local addresses of the sockets listening on ``port`` (IPv4 and IPv6 tables)."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            address, hex_port = fields[1].rsplit(":", 1)
            if int(hex_port, 16) == port and fields[3] == LISTEN:
                found.append(address)
    return found


def test_the_server_listens_on_loopback_only_by_default() -> None:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "reborn_env.web", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while not _listening_addresses(port):
            assert server.poll() is None, server.stderr.read().decode()
            assert time.monotonic() < deadline, "the server did not start listening"
            time.sleep(0.1)
        assert _listening_addresses(port) == [LOOPBACK_HEX]
        with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
            assert connection.getpeername() == ("127.0.0.1", port)
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert b"warning" not in server.stderr.read()


def test_another_address_only_when_asked_and_with_a_warning(monkeypatch, capsys) -> None:
    import uvicorn

    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    assert web_main.main([]) == 0
    assert calls[-1]["host"] == "127.0.0.1"
    assert "warning" not in capsys.readouterr().err
    assert web_main.main(["--host", "0.0.0.0", "--port", "8123"]) == 0
    assert calls[-1]["host"] == "0.0.0.0" and calls[-1]["port"] == 8123
    assert "warning: listening on 0.0.0.0" in capsys.readouterr().err


def test_a_bot_that_does_not_load_is_one_error_line(capsys) -> None:
    assert web_main.main(["--bot", "no_such_bot"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --bot 'no_such_bot'") and err.count("\n") == 1


def test_a_port_out_of_range_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exit_:
        web_main.main(["--port", "70000"])
    assert exit_.value.code == 2
