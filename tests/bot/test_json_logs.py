"""LOG_FORMAT=json: one JSON object per line, with the session, guild and channel ids as fields where known."""

import io
import json
import logging

import pytest

from bot import logs


@pytest.fixture
def json_stream():
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    handler = logs.setup_logging("INFO", "json")
    stream = io.StringIO()
    handler.setStream(stream)
    yield stream
    for h in list(root.handlers):
        root.removeHandler(h)
    for h in saved[0]:
        root.addHandler(h)
    root.setLevel(saved[1])


def test_ids_from_extra_are_fields(json_stream):
    logging.getLogger("bot.test").info("move committed", extra={"session_id": 12, "guild_id": 3, "channel_id": 4})
    lines = json_stream.getvalue().splitlines()
    assert len(lines) == 1
    line = json.loads(lines[0])
    assert set(line) == {"time", "level", "logger", "message", "session_id", "guild_id", "channel_id"}
    assert (line["level"], line["logger"], line["message"]) == ("INFO", "bot.test", "move committed")
    assert (line["session_id"], line["guild_id"], line["channel_id"]) == ("12", "3", "4")


def test_ids_from_context_and_unknown_ones_left_out(json_stream):
    import contextvars

    def handle():
        logs.about(guild_id=7, channel_id=8, session_id=None)
        logging.getLogger("bot.cmd").warning("first")
        logging.getLogger("bot.cmd").warning("second", extra={"session_id": 99})

    contextvars.copy_context().run(handle)
    logging.getLogger("bot.cmd").error("outside")
    lines = [json.loads(s) for s in json_stream.getvalue().splitlines()]
    assert [(x["message"], x["level"]) for x in lines] == [("first", "WARNING"), ("second", "WARNING"),
                                                          ("outside", "ERROR")]
    assert {k: lines[0][k] for k in logs.IDS if k in lines[0]} == {"guild_id": "7", "channel_id": "8"}
    assert {k: lines[1][k] for k in logs.IDS if k in lines[1]} == {"session_id": "99", "guild_id": "7",
                                                                   "channel_id": "8"}
    assert set(lines[2]) == {"time", "level", "logger", "message"}


def test_the_time_is_rfc_3339_in_utc_with_z(json_stream):
    record = logging.LogRecord("bot.test", logging.INFO, __file__, 1, "at a known moment", None, None)
    record.created = 1796335509.57
    logging.getLogger("bot.test").handle(record)
    line = json.loads(json_stream.getvalue().splitlines()[-1])
    assert line["time"] == "2026-12-03T22:05:09.570Z"
