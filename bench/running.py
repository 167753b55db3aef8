"""The real ``python -m bot run`` for the benches, against the local stand-in of Discord (``tests/discord/standin.py``):
started in its own process group with its stderr in a file, waited for by what it logs, stopped by a signal.

    async with Running(tmp, guilds={...}, AI_PAUSE_MS="0") as bot:
        await bot.logged("has connected to Gateway")
        exit_s, rc = await bot.stop()
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "discord"))

from standin import StandIn  # noqa: E402

CONNECTED = "has connected to Gateway"
"""What discord.py logs once the gateway session is up."""


class Running:
    """The bot process with the settings ``env`` (beside ``DATABASE_PATH`` and ``IMAGES_DIR`` in ``folder``), the
    stand-in serving ``guilds`` (guild id -> channel ids)."""

    def __init__(self, folder: Path, guilds: dict[str, list[str]] | None = None, **env: str) -> None:
        self.folder, self.guilds, self.env = Path(folder), guilds, env
        self.db = self.folder / "bot.sqlite3"
        self.err_path = self.folder / "stderr.txt"
        self.standin: StandIn | None = None
        self.proc: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> Running:
        self.standin = await StandIn(guilds=self.guilds).start()
        env = {"DATABASE_PATH": str(self.db), "IMAGES_DIR": str(self.folder / "images"), **self.env}
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=ROOT, stderr=self.err_path.open("wb"),
            stdout=asyncio.subprocess.DEVNULL, start_new_session=True, env=self.standin.env(**env))
        return self

    async def __aexit__(self, *exc) -> None:
        if self.proc is not None and self.proc.returncode is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            await self.proc.wait()
        if self.standin is not None:
            await self.standin.stop()

    @property
    def err(self) -> str:
        return self.err_path.read_text()

    async def logged(self, text: str) -> None:
        """Wait until the bot's log holds ``text``; ``SystemExit`` with its log when it exits first."""
        while text not in self.err:
            if self.proc.returncode is not None:
                raise SystemExit(f"the bot exited ({self.proc.returncode}) before {text!r}:\n{self.err}")
            await asyncio.sleep(0.02)

    async def stop(self, sig: signal.Signals = signal.SIGTERM) -> tuple[float, int]:
        """Send ``sig`` to the bot's process group: (seconds until the process exited, its exit code)."""
        if self.proc.returncode is not None:
            raise SystemExit(f"the bot exited ({self.proc.returncode}) before the signal:\n{self.err}")
        sent = time.monotonic()
        os.killpg(self.proc.pid, sig)
        rc = await self.proc.wait()
        return time.monotonic() - sent, rc
