"""Answering interactions within Discord's deadline: the 3 s count from an interaction's creation (its snowflake),
so a handler that starts late defers before its database work (:func:`defer_when_late`) and answers by follow-ups.
The helpers here answer the same way whether or not the interaction was deferred."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

log = logging.getLogger(__name__)

DISCORD_EPOCH_MS = 1_420_070_400_000
INTERACTION_BUDGET_MS = 3000
"""Discord's deadline for the first answer to an interaction, counted from its creation (its snowflake)."""
THINKING = "pbc_thinking"
"""``Interaction.extras`` key: ``"public"`` or ``"ephemeral"`` while a deferred command's "thinking…" message
waits for its first follow-up (which replaces it and keeps its visibility)."""
RENDER_BUDGET_S = 2.0
"""Longer than this and the interaction is deferred first (Discord's deadline is 3 s)."""
DEFER_BELOW_MS = 1500
"""An interaction with less than this left of :data:`INTERACTION_BUDGET_MS` when its handler starts is deferred
before any database work, and answered by follow-ups."""


def snowflake_ms(snowflake: int) -> int:
    """Discord's clock: the ms timestamp inside a snowflake id (RULINGS TK-10)."""
    return (int(snowflake) >> 22) + DISCORD_EPOCH_MS


def budget_ms(interaction: discord.Interaction, now_ms: int) -> int:
    """What is left (ms, may be negative) of the interaction's 3 s at ``now_ms`` (the local clock), counted from its
    creation time inside its snowflake."""
    return INTERACTION_BUDGET_MS - (int(now_ms) - snowflake_ms(interaction.id))


async def followup(interaction: discord.Interaction, *, ephemeral: bool, **kwargs: Any) -> discord.WebhookMessage:
    """A follow-up to an answered interaction. The first follow-up of a deferred command replaces its "thinking…"
    message and keeps its visibility: when that is not the one wanted (a refusal after a public defer), the
    "thinking…" message is deleted first, so a refusal stays ephemeral and a board stays public."""
    thinking = interaction.extras.pop(THINKING, None)
    if thinking is not None and thinking != ("ephemeral" if ephemeral else "public"):
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as exc:
            log.info("deferred answer of interaction %s not deleted: %s", interaction.id, exc)
    return await interaction.followup.send(ephemeral=ephemeral, wait=True, **kwargs)


async def update_message(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message a component is on: the press's own update, or its original message once deferred."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


async def answer(interaction: discord.Interaction, content: str, *, ephemeral: bool = True, **kwargs: Any) -> None:
    """Answer an interaction with a message: its response, or a follow-up once it was deferred."""
    if interaction.response.is_done():
        await followup(interaction, ephemeral=ephemeral, content=content, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)


async def defer_when_late(interaction: discord.Interaction, now_ms: int, *, ephemeral: bool = False) -> bool:
    """Before a handler's database work: defer ``interaction`` when less than :data:`DEFER_BELOW_MS` is left of its
    3 s at ``now_ms`` (:func:`budget_ms`) — a component by a deferred update (its answers follow), a command by a
    "thinking…" message (``ephemeral``: the visibility of its answer). Never raises; always True (it is used as an
    ``interaction_check``)."""
    try:
        if interaction.response.is_done() or interaction.type not in (
                discord.InteractionType.component, discord.InteractionType.application_command):
            return True
        left = budget_ms(interaction, now_ms)
        if left >= DEFER_BELOW_MS:
            return True
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
            interaction.extras[THINKING] = "ephemeral" if ephemeral else "public"
        log.debug("interaction %s deferred with %d ms of its budget left", interaction.id, left)
    except discord.HTTPException as exc:
        log.info("interaction %s could not be deferred: %s", interaction.id, exc)
    except Exception:
        log.exception("deferring interaction %s failed", interaction.id)
    return True


async def await_render(interaction: discord.Interaction | None, task: asyncio.Future) -> bytes | None:
    """Wait for a render (``task``: PNG bytes or None); defer the interaction when it outlasts
    :data:`RENDER_BUDGET_S` (the board then follows as a new message)."""
    if interaction is None or interaction.response.is_done():
        return await task
    try:
        return await asyncio.wait_for(asyncio.shield(task), RENDER_BUDGET_S)
    except TimeoutError:
        await interaction.response.defer(ephemeral=True, thinking=True)
        return await task
