"""``python -m bot``: ``sandbox``, ``script FILE``, ``demo GAME``, ``gallery``, ``run`` (the Discord bot),
``invite``, ``migrate-store --to postgresql://…`` (copy an SQLite store into PostgreSQL), ``forget-user USER_ID``
(delete a member's data, :mod:`bot.privacy`)."""

from __future__ import annotations

import asyncio
import logging
import sys
import tempfile
from pathlib import Path

import click

from .config import load_settings
from .privacy import forget_user_command
from .sessions import SessionService
from .store import Store

SEED = click.IntRange(-(2**62), 2**62)
"""Seeds the store can hold (SQLite INTEGER is 64-bit), with room for the script's +1 per game."""


async def _service(db: str | None) -> SessionService:
    path = db or str(Path(tempfile.mkdtemp(prefix="bot-")) / "session.sqlite3")
    return SessionService(await Store.open(path))


@click.group()
def cli() -> None:
    """Play-by-chat tabletop games: Tatari, Tsukimi, Tatamokatsu, Forest of Tataraba, Tatsumi."""


@cli.command()
@click.option("--out", "out", type=click.Path(path_type=Path), default=None, help="Folder for board PNGs.")
@click.option("--db", default=None, help="SQLite file (default: the settings' database path).")
def sandbox(out: Path | None, db: str | None) -> None:
    """An interactive chat in the terminal: type lines like 'alice: /play tatari', 'bob: /join', 'alice: 2'."""
    from .local.chat import HELP, LocalChat

    settings = load_settings()
    out = out or settings.images_dir / "sandbox"

    async def main() -> None:
        service = await _service(db or str(settings.database_path.with_name("sandbox.sqlite3")))
        chat = LocalChat(service, out)
        click.echo(f"Sandbox. Board images go to {out}/. Type 'name: /help'; Ctrl-D to quit.\n{HELP}")
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, _read_line)
            if line is None:
                break
            for reply in await chat.line(line):
                click.echo(reply)
        await service.store.close()

    asyncio.run(main())


def _read_line() -> str | None:
    try:
        return input("> ")
    except EOFError:
        return None


@cli.command()
@click.argument("file", type=click.File("r"))
@click.option("--out", "out", type=click.Path(path_type=Path), default=None, help="Folder for board PNGs.")
@click.option("--db", default=None, help="SQLite file (default: a fresh temporary one).")
@click.option("--echo/--no-echo", default=True, help="Print each input line before its replies.")
@click.option("--seed", default=1, show_default=True, type=SEED, help="Seed of the first game (then +1 per game).")
def script(file, out: Path | None, db: str | None, echo: bool, seed: int) -> None:
    """Play a chat transcript (the sandbox's lines) from FILE ('-' for stdin) and print the replies.
    The same file and seed give the same replies."""
    from .local.chat import LocalChat

    async def main() -> int:
        service = await _service(db)
        seeds = iter(range(seed, seed + 1_000_000))
        service.seeds = lambda: next(seeds)
        chat = LocalChat(service, out)
        errors = 0
        for line in file:
            replies = await chat.line(line)
            if echo and line.strip() and not line.lstrip().startswith("# "):
                click.echo(f">>> {line.rstrip()}")
            for reply in replies:
                errors += reply.startswith("!")
                click.echo(reply)
        await service.store.close()
        return errors

    asyncio.run(main())


@cli.command()
@click.argument("game")
@click.option("--players", "-n", default=2, show_default=True, help="How many AI players.")
@click.option("--seed", "-s", default=1, show_default=True, type=SEED,
              help="Seed of the game (same seed, same game).")
@click.option("--out", "out", type=click.Path(path_type=Path), default=None,
              help="Folder for the PNGs and game.gif [default: out/demo-GAME-SEED].")
@click.option("--strategy", type=click.Choice(["greedy", "random", "easy", "normal", "strong"]), default="greedy",
              show_default=True, help="The AI players: greedy, random, or an AI seat level (strong searches).")
@click.option("--budget-ms", default=300, show_default=True, type=click.IntRange(1, 1000),
              help="The strong level's thinking time per move, ms (at most 1000).")
@click.option("--option", "-o", "options", multiple=True, help="A game option key=value (repeatable).")
@click.option("--no-images", is_flag=True, help="Play without writing images (fast).")
@click.option("--db", default=None, help="SQLite file the game is recorded in (default: DATABASE_PATH).")
def demo(game: str, players: int, seed: int, out: Path | None, strategy: str, budget_ms: int, options,
         no_images: bool, db: str | None) -> None:
    """AI players (alice, bob, carol, …) play GAME to the end: a PNG per move, an animated GIF, the result
    printed. The game is recorded (and rated) in the database like any other."""
    import games

    from .local.demo import run_demo
    from .sessions import SessionError

    try:
        g = games.get(game)
    except KeyError as exc:
        raise click.BadParameter(str(exc.args[0]), param_hint="GAME") from None
    if not g.min_players <= players <= g.max_players:
        span = f"{g.min_players}-{g.max_players}" if g.min_players != g.max_players else str(g.min_players)
        raise click.BadParameter(f"{g.title} takes {span} players, not {players}.", param_hint="'--players'")
    bad = [o for o in options if "=" not in o]
    if bad:
        raise click.BadParameter(f"write key=value, not {bad[0]!r}.", param_hint="'--option'")
    opts = dict(o.split("=", 1) for o in options)
    out = None if no_images else (out or load_settings().images_dir / f"demo-{game}-{seed}")

    async def main():
        service = await _service(db or str(load_settings().database_path))
        try:
            return await run_demo(service, game, players, seed, out, strategy, opts, budget_ms=budget_ms)
        finally:
            await service.store.close()

    try:
        res = asyncio.run(main())
    except SessionError as exc:
        raise click.ClickException(str(exc)) from None
    r = res.update.result
    from games import format_text, ranking_text

    for line in res.log[-8:]:
        click.echo(line)
    click.echo(f"{res.moves} moves. {format_text(r.reason, lambda p: p)}")
    click.echo("Ranking: " + ranking_text(r, lambda p: p))
    if res.images:
        click.echo(f"{len(res.images)} boards in {out}/, animation {res.gif}")


@cli.command()
@click.option("--out", "out", type=click.Path(path_type=Path), required=True, help="Folder for the boards.")
@click.option("--game", "-g", "game_ids", multiple=True, help="Only this game (repeatable; default: every game).")
@click.option("--seed", "-s", default=1, show_default=True, type=SEED, help="Seed of the games (+ player count).")
@click.option("--colour-vision", is_flag=True,
              help="Also each 400 px board in greyscale and as protanopia, deuteranopia, tritanopia see it.")
def gallery(out: Path, game_ids: tuple[str, ...], seed: int, colour_vision: bool) -> None:
    """Representative boards of every game and player count (start, a decision with markers, a race, the end,
    the full board), each at full size and 400 px wide, with an index.html to review them."""
    import games
    from renderers.common import VISIONS

    from .local.gallery import write_gallery

    for g in game_ids:
        try:
            games.get(g)
        except KeyError as exc:
            raise click.BadParameter(str(exc.args[0]), param_hint="'--game'") from None
    done = write_gallery(out, list(game_ids) or None, seed, VISIONS if colour_vision else ())
    for entry in done:
        click.echo(f"{entry.game} {entry.players}p: {len(entry.files)} images, {entry.moves} moves")
    click.echo(f"{sum(len(e.files) for e in done)} images in {out}/, open {out / 'index.html'}")


@cli.command()
@click.argument("texts", nargs=-1, required=True)
def glyphs(texts: tuple[str, ...]) -> None:
    """Per TEXT, how many of its characters no bundled font draws: `text=<TEXT> missing=<n>`."""
    from renderers.common import missing_glyphs

    for t in texts:
        click.echo(f"text={t} missing={missing_glyphs(t)}")


@cli.command()
def run() -> None:
    """Run the Discord bot (needs DISCORD_TOKEN in the environment or .env)."""
    settings = load_settings()
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        from .discord.runner import run as run_discord
    except ImportError:
        if settings.discord_token is None:
            click.echo("DISCORD_TOKEN is not set: put it in the environment or .env (see .env.example).", err=True)
            sys.exit(2)
        click.echo("The Discord adapter is not installed in this build.", err=True)
        sys.exit(2)
    sys.exit(run_discord(settings))


@cli.command("migrate-store")
@click.option("--to", "target", required=True, help="The PostgreSQL database: postgresql://user:password@host/db.")
@click.option("--from", "source", default=None,
              help="The SQLite file to copy (default: the settings' DATABASE_PATH).")
def migrate_store(target: str, source: str | None) -> None:
    """Copy an SQLite store (sessions, moves, timers, finished games, settings) into an empty PostgreSQL database,
    then check that every session replays to its stored state. Exit 1 on any difference, 5 when a store cannot be
    used."""
    from .store import StoreError
    from .store.copy import copy_store

    settings = load_settings()
    source = source or str(settings.database_path)
    if not Path(source).is_file():
        click.echo(f"There is no SQLite store at {source} (give --from PATH).", err=True)
        sys.exit(5)
    try:
        report = asyncio.run(copy_store(source, target))
    except StoreError as exc:
        click.echo(f"The store cannot be used: {exc}.", err=True)
        sys.exit(5)
    for line in report.lines():
        click.echo(line)
    if report.problems:
        sys.exit(1)
    click.echo("copied and checked")


@cli.command()
@click.argument("client_id", type=click.IntRange(min=1))
def invite(client_id: int) -> None:
    """Print the URL that adds the bot (application CLIENT_ID) to a server, and the permissions it asks for."""
    from .discord.permissions import INTEGER, NEEDED, SCOPES, invite_url

    click.echo(invite_url(client_id))
    click.echo(f"Scopes: {', '.join(SCOPES)}. Permissions integer: {INTEGER}:")
    for name, why in NEEDED.items():
        click.echo(f"  {name.replace('_', ' ').title()}: {why}")


cli.add_command(forget_user_command)


def main() -> None:
    cli(prog_name="python -m bot")


if __name__ == "__main__":
    main()
