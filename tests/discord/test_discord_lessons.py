"""/learn GAME: a guided first game in a thread of the learner's (ephemeral steps without thread permissions); a
wrong choice is explained and asked again; nothing is recorded as a game."""

from __future__ import annotations

import pytest
from harness import ALL_PERMS, CHANNEL_ID, Harness, http_error

from games.lessons import LESSONS

CREATE_PUBLIC_THREADS = 1 << 35


@pytest.fixture
async def h(database):
    async with Harness(database) as harness:
        yield harness


def edited(reply) -> object:
    """The lesson message as an answer left it (deferred, then the original edited with the next board)."""
    return next(s for s in reversed(reply) if s.kind == "edit_original")


def step_page(reply) -> object:
    """The ephemeral lesson step of a reply (after the deferral)."""
    return next(s for s in reply if s.ephemeral and s.content)


def option_index(message: dict, label: str) -> str:
    for row in message["components"]:
        for c in row["components"]:
            for o in c.get("options", []):
                if o["label"] == label:
                    return o["value"]
    raise AssertionError(f"no option {label!r}")


async def test_learn_in_a_thread_wrong_choice_asked_again_to_the_end(h):
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    reply = await h.slash(alice, "learn", game="tatari")
    thread = next(s for s in reply if s.kind == "thread")
    tid = int(thread.message["id"])
    assert thread.body["name"] == "Learn Tatari — alice"
    assert any(s.ephemeral and f"Your Tatari lesson is in <#{tid}>." == s.content for s in reply)
    page = next(s for s in reply if s.kind == "message" and s.channel_id == tid)
    assert page.content.startswith("<@101>\nalice holds the Cursed box first")
    assert "Step 1 of 7: Each roll, you set aside ONE face" in page.content
    # someone else cannot answer the learner's lesson
    reply = await h.select(bob, page, 0, [option_index(page.message, "2")])
    assert reply.ephemeral() and "This is <@101>'s lesson: /learn tatari for your own." in reply.text
    # a wrong choice: why, and the same step again (the message edited in place)
    reply = await h.select(alice, page, 0, [option_index(page.message, "2")])
    edit = edited(reply)
    assert "✗ That face adds little to your total." in edit.content and "Step 1 of 7" in edit.content
    assert "sets aside" not in edit.content
    for step in LESSONS["tatari"].steps:
        pick = {"set:4": "4", "set:double": "double-doll", "set:doll": "doll"}.get(step.right)
        labels = [o["label"] for c in edit.components for o in c["options"]]
        label = pick if pick is not None else next(x for x in labels if x.lower().startswith(step.right))
        label = next(x for x in labels if x == label or x.startswith(label + " ×"))
        edit = edited(await h.select(alice, edit, 0, [option_index(edit.message, label)]))
    assert "That was the whole lesson. Play a real game against an AI seat: /play tatari ai:1" in edit.content
    assert edit.components == []
    assert await h.store.live_session(str(tid)) is None
    assert await h.store.live_session(str(CHANNEL_ID)) is None


async def test_learn_without_thread_permission_is_ephemeral_and_in_japanese(h):
    h.app_permissions = ALL_PERMS & ~CREATE_PUBLIC_THREADS
    alice = h.user(101, "alice")
    alice.locale = "ja"
    reply = await h.slash(alice, "learn", game="tatari")
    assert not any(s.kind == "thread" for s in reply)
    page = step_page(reply)
    assert "手順 1/7：振るたびに出目を1種類だけ選び" in page.content
    reply = await h.select(alice, page, 0, ["0"])
    assert "✗ その出目では合計がほとんど増えません。" in edited(reply).content
    assert "手順 1/7" in edited(reply).content
    reply = await h.slash(alice, "learn", game="chess")
    assert reply.ephemeral() and "chess" in reply.text


def refusing(path: str):
    """A ``FakeDiscord.refuse`` hook: every REST POST to ``path`` is refused (403), each one noted."""
    refused: list[str] = []

    def refuse(kind, method, route, body, files):
        if kind == "rest" and method == "POST" and route == path:
            refused.append(route)
            return http_error(403, 50001, "Missing Access")
        return None

    refuse.refused = refused
    return refuse


@pytest.mark.parametrize("path", ["/channels/{channel_id}/threads", "/channels/{channel_id}/messages"])
async def test_learn_where_the_thread_cannot_be_used_falls_back_to_ephemeral_steps(h, path):
    """The thread cannot be opened, or opened but not posted in (then it is removed): the steps come as an
    ephemeral answer in the channel."""
    alice = h.user(101, "alice")
    h.fake.refuse = refusing(path)
    reply = await h.slash(alice, "learn", game="tsukimi")
    assert h.fake.refuse.refused
    page = reply.ephemeral()[-1]
    assert "Step 1 of 9: Each turn you take a mochi tile" in page.content
    assert [len(c["options"]) for c in page.components] == [18]
    assert any(s.method == "DELETE" for s in reply) is (path.endswith("messages"))


def boards(sent) -> list[tuple[str, str | None]]:
    """``(filename, alt text)`` of each image ``sent`` uploads."""
    uploads = {a["id"]: a for a in (sent.data or {}).get("attachments") or [] if isinstance(a.get("id"), int)}
    return [(name, uploads.get(i, {}).get("description")) for i, (name, _) in enumerate(sent.files)]


@pytest.mark.parametrize("threads", [True, False])
async def test_every_lesson_step_shows_its_board_with_alt_text(h, threads):
    """Each step's message carries the board the step speaks of, as every turn does: an image with its alt text
    (the learner and the Teacher by name), a new one at every answer — in the thread and as ephemeral steps."""
    if not threads:
        h.app_permissions = ALL_PERMS & ~CREATE_PUBLIC_THREADS
    alice = h.user(101, "alice")
    reply = await h.slash(alice, "learn", game="tatsumi")
    page = next(s for s in reply if s.files)
    assert page.ephemeral is not threads and "Step 1 of 9" in page.content
    [(name, alt)] = boards(page)
    assert name == "lesson-tatsumi-1.png" and "alice" in alt and "Teacher" in alt, alt
    assert page.files[0][1].startswith(b"\x89PNG")
    edit = edited(await h.select(alice, page, 0, [option_index(page.message, "fly to b2, claim lightning from a1")]))
    [(name, again)] = boards(edit)
    assert name == "lesson-tatsumi-2.png" and "Step 2 of 9" in edit.content and again and again != alt
