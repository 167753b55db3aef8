"""Answering interactions within Discord's deadline (issue 17 item 7): the 3 s count from an interaction's creation
(its snowflake), so a handler that starts late defers before its database work (:meth:`bot.discord.play.Play.in_budget`)
and answers by follow-ups. The helpers here answer the same way whether or not the interaction was deferred."""

from __future__ import annotations

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


def snowflake_ms(snowflake: int) -> int:
    """Discord's clock: the ms timestamp inside a snowflake id (RULINGS TK-10)."""
    return (int(snowflake) >> 22) + DISCORD_EPOCH_MS


def budget_ms(interaction: discord.Interaction, now_ms: int) -> int:
    """What is left (ms, may be negative) of the interaction's 3 s at ``now_ms`` (the local clock), counted from its
    creation time inside its snowflake (issue 17 item 7)."""
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
