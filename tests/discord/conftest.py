import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def patient_replays(monkeypatch):
    """Replays drawn by real worker processes on a busy test machine may take longer than a player is kept waiting
    (``REPLAY_WAIT_S``): the tests wait for them as long as a job may take (the deadline's own test sets its own)."""
    from bot import heavy
    from bot.discord import results

    monkeypatch.setattr(results, "REPLAY_WAIT_S", heavy.JOB_TIMEOUT_S)
