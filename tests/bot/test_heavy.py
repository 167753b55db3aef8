"""The replay files kept on disk (bot/heavy.py): bounded by size, least recently used removed first, the order
kept across a restart; cache keys that tell games apart."""

from __future__ import annotations

import os
from collections import deque
from pathlib import Path

from bot import heavy
from bot.heavy import ReplayCache, replay_key


def write(cache: ReplayCache, key: str, size: int, mtime: int) -> None:
    path = cache.path(key)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"G" * size)
    os.utime(path, (mtime, mtime))
    cache.put(key, size)


def test_replays_beyond_the_cap_go_least_recently_used_first(tmp_path):
    cache = ReplayCache(tmp_path, max_bytes=1000)
    write(cache, "1-a", 400, 100)
    write(cache, "2-b", 400, 200)
    assert cache.get("1-a") == tmp_path / "1-a.gif"  # used again: now the most recent
    write(cache, "3-c", 400, 300)
    assert sorted(p.name for p in tmp_path.glob("*.gif")) == ["1-a.gif", "3-c.gif"]
    assert cache.total == 800 and cache.get("2-b") is None
    write(cache, "4-d", 2000, 400)  # bigger than the cap alone: kept (just written), every other one removed
    assert [p.name for p in tmp_path.glob("*.gif")] == ["4-d.gif"] and cache.total == 2000


def test_the_index_is_read_back_from_disk_oldest_first(tmp_path):
    first = ReplayCache(tmp_path, max_bytes=10_000)
    for i, key in enumerate(("5-x", "6-y", "7-z")):
        write(first, key, 300, 1000 + i)
    again = ReplayCache(tmp_path, max_bytes=700)
    assert len(again) == 2 and again.total == 600
    assert sorted(p.name for p in tmp_path.glob("*.gif")) == ["6-y.gif", "7-z.gif"]


def test_replay_keys_differ_per_game_and_names():
    key = replay_key(12, "tatari", 99, ["101", "102"], 30, {"101": "alice"})
    assert key.startswith("12-") and len(key) == 19
    assert key == replay_key(12, "tatari", 99, ["101", "102"], 30, {"101": "alice"})
    assert len({key, replay_key(12, "tatari", 98, ["101", "102"], 30, {"101": "alice"}),
                replay_key(12, "tatari", 99, ["101", "102"], 31, {"101": "alice"}),
                replay_key(12, "tatari", 99, ["101", "102"], 30, {"101": "ann"})}) == 4


def test_quotas_remember_a_bounded_number_of_members(monkeypatch):
    """The per-minute windows keep MAX_KEYS members (and servers) at the most, the oldest forgotten first; tickets
    released leave no count behind."""
    monkeypatch.setattr(heavy, "MAX_KEYS", 5)
    quota = heavy.Heavy(Path("unused"), clock=lambda: 1_000)
    for member in range(8):
        quota.admit(member, member % 2).release()
    assert len(quota._members) == 5 and len(quota._servers) == 2
    assert quota.admitted == 0 and quota._member_now == {} and quota._server_now == {}
    assert quota._members.wait_ms("7", 1_000) == 0 and quota._members._times["7"] == deque([1_000], maxlen=4)


def test_two_processes_sharing_the_folder_keep_one_bound(tmp_path):
    """Each process has its own cache object; the bound holds for the folder (it was per process: 1.91x)."""
    one, two = ReplayCache(tmp_path, max_bytes=1000), ReplayCache(tmp_path, max_bytes=1000)
    for i in range(6):
        write(one if i % 2 else two, f"{i}-k", 300, 100 + i)
        assert sum(p.stat().st_size for p in tmp_path.glob("*.gif")) <= 1000
    assert sorted(p.name for p in tmp_path.glob("*.gif")) == ["3-k.gif", "4-k.gif", "5-k.gif"]
    assert one.get("1-k") is None and two.get("5-k") == tmp_path / "5-k.gif"


def test_dropping_a_games_replays_deletes_each_of_its_files_only(tmp_path):
    for name in ("12-aaaa.gif", "12-bbbb.gif", "120-cccc.gif", "3-dddd.gif"):
        (tmp_path / name).write_bytes(b"G")
    assert heavy.drop_replays(tmp_path, [12, 3]) == 3
    assert [p.name for p in tmp_path.glob("*.gif")] == ["120-cccc.gif"]
    assert heavy.drop_replays(tmp_path, []) == 0
