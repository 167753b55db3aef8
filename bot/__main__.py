"""``python -m bot``: ``sandbox``, ``script FILE``, ``demo GAME``, ``gallery``, ``run`` (the Discord bot),
``invite``, ``migrate-store --to postgresql://…`` (copy an SQLite store into PostgreSQL), ``backup --to FILE`` (a
consistent copy of the SQLite store, also while the bot runs), ``sync-commands`` (the slash commands to Discord, or
``--print`` their payloads), ``forget-user USER_ID`` (delete a member's data, :mod:`bot.privacy`), ``glyphs TEXT…``,
``i18n update|compile|check`` (the translation catalogues, :mod:`bot.catalogues`), ``--version``.

Every command that reads the settings exits 2 with one line per bad value (:class:`bot.config.SettingsError`)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import multiprocessing
import multiprocessing.util
import os
import sys
import tempfile
from pathlib import Path
from typing import NoReturn

import click

from .config import Settings, SettingsError, load_settings
from .privacy import forget_user_command
from .sessions import SessionService
from .store import Store, StoreError

SEED_LIMIT = 2**62
"""Seeds the store can hold (SQLite INTEGER is 64-bit), with room for the script's +1 per game."""


class SeedType(click.ParamType):
    """A whole number within ±:data:`SEED_LIMIT` (its bounds said when one is refused, not in every ``--help``)."""

    name = "integer"

    def convert(self, value, param, ctx) -> int:
        try:
            seed = int(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a whole number.", param, ctx)
        if not -SEED_LIMIT <= seed <= SEED_LIMIT:
            self.fail(f"{seed} is too large: a seed is from -2**62 to 2**62.", param, ctx)
        return seed


SEED = SeedType()


def settings_or_exit(**overrides) -> Settings:
    """:func:`load_settings`, or each bad value's line on stderr and exit 2."""
    try:
        return load_settings(**overrides)
    except SettingsError as exc:
        for line in exc.lines:
            click.echo(line, err=True)
        sys.exit(2)


async def _service(db: str | None, **options) -> SessionService:
    """The session service on :func:`_store` ``db``, with ``options`` (``seeds``, …)."""
    return SessionService(await _store(db), **options)


async def _store(db: str | None) -> Store:
    """The store ``db`` (an SQLite path or a ``postgresql://`` URL; None: a fresh temporary SQLite file). Exit 5
    with one line when it cannot be used."""
    target = db or str(Path(tempfile.mkdtemp(prefix="bot-")) / "session.sqlite3")
    try:
        return await Store.open(target)
    except StoreError as exc:
        click.echo(f"The store cannot be used: {exc}.", err=True)
        sys.exit(5)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tabletop-bot")
    except PackageNotFoundError:  # run from a checkout that was never installed: the version in pyproject.toml
        import tomllib

        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        try:
            return tomllib.loads(pyproject.read_text())["project"]["version"]
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "unknown"


@click.group()
@click.version_option(_version(), "--version", prog_name="tabletop-bot", message="%(prog)s %(version)s")
def cli() -> None:
    """Play-by-chat tabletop games: Tatari, Tsukimi, Tatamokatsu, Forest of Tataraba, Tatsumi."""


HISTORY_LINES = 1000
"""How many typed lines the sandbox keeps in its history file."""


def line_editing(history: Path) -> bool:
    """When stdin is a terminal: line editing and Up/Down through the lines typed before, also in earlier sandbox
    sessions (GNU readline, or libedit on macOS; ``history`` is read now and written at exit, at most
    :data:`HISTORY_LINES` lines). Returns whether it is on (False: not a terminal, or no readline module, as on
    Windows without pyreadline3)."""
    if not sys.stdin.isatty():
        return False
    try:
        import readline
    except ImportError:
        return False
    import atexit

    readline.set_history_length(HISTORY_LINES)
    try:
        readline.read_history_file(history)
    except OSError:  # the first session, or a history file that cannot be read: start without
        pass

    def save() -> None:
        try:
            history.parent.mkdir(parents=True, exist_ok=True)
            readline.write_history_file(history)
        except OSError:
            pass

    atexit.register(save)
    return True


@cli.command()
@click.option("--out", "out", type=click.Path(path_type=Path), default=None, help="Folder for board PNGs.")
@click.option("--db", default=None, help="SQLite file or postgresql:// URL (default: DATABASE_URL when set, else "
              "sandbox.sqlite3 beside DATABASE_PATH).")
@click.option("--locale", "lang", type=click.Choice(["en", "ja"]), default="en", show_default=True,
              help="The language of the replies and boards (en English, ja 日本語).")
def sandbox(out: Path | None, db: str | None, lang: str) -> None:
    """An interactive chat in the terminal: type lines like 'alice: /play tatari', 'bob: /join', 'alice: 2'.
    In a terminal, Up/Down recall earlier lines (also of earlier sessions: sandbox_history beside DATABASE_PATH)."""
    from games.core import T

    from .i18n import say
    from .local.chat import LocalChat
    from .rules_help import SANDBOX_HELP

    settings = settings_or_exit()
    line_editing(settings.database_path.with_name("sandbox_history"))
    out = out or settings.images_dir / "sandbox"

    async def main() -> None:
        service = await _service(db or settings.database_url or str(settings.database_path.with_name(
            "sandbox.sqlite3")))
        chat = LocalChat(service, out, lang=lang)
        click.echo(say(T("Sandbox. Board images go to {out}/. Type 'name: /help'; Ctrl-D to quit.\n{help}",
                         out=str(out), help=SANDBOX_HELP), lang))
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, _read_line)
            if line is None:
                break
            for reply in await chat.line(line):
                click.echo(reply)
        await service.close()

    asyncio.run(main())


def _read_line() -> str | None:
    try:
        return input("> ")
    except EOFError:
        return None


@cli.command()
@click.argument("file", type=click.File("r"))
@click.option("--out", "out", type=click.Path(path_type=Path), default=None, help="Folder for board PNGs.")
@click.option("--db", default=None, help="SQLite file or postgresql:// URL (default: a fresh temporary SQLite "
              "file, so the same file and seed give the same replies).")
@click.option("--settings-store", is_flag=True, help="Record the games in the store of the settings, as 'run' "
              "does (DATABASE_URL, else DATABASE_PATH).")
@click.option("--echo/--no-echo", default=True, help="Print each input line before its replies.")
@click.option("--seed", default=1, show_default=True, type=SEED, help="Seed of the first game (then +1 per game).")
@click.option("--locale", "lang", type=click.Choice(["en", "ja"]), default="en", show_default=True,
              help="The language of the replies and boards (en English, ja 日本語).")
def script(file, out: Path | None, db: str | None, settings_store: bool, echo: bool, seed: int, lang: str) -> None:
    """Play a chat transcript (the sandbox's lines) from FILE ('-' for stdin) and print the replies.
    The same file and seed give the same replies."""
    from .local.chat import LocalChat

    if settings_store:
        db = db or settings_or_exit().database()

    async def main() -> int:
        seeds = iter(range(seed, seed + 1_000_000))
        service = await _service(db, seeds=lambda: next(seeds))
        chat = LocalChat(service, out, lang=lang)
        errors = 0
        try:  # the store's thread must stop whatever ends the run (a closed pipe, Ctrl-C), or the process hangs
            for line in file:
                replies = await chat.line(line)
                if echo and line.strip() and not line.lstrip().startswith("# "):
                    click.echo(f">>> {line.rstrip()}")
                for reply in replies:
                    errors += reply.startswith("!")
                    click.echo(reply)
        finally:
            await service.close()
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
@click.option("--db", default=None, help="SQLite file or postgresql:// URL the game is recorded in (default: "
              "the store of the settings, as 'run': DATABASE_URL, else DATABASE_PATH).")
@click.option("--locale", "lang", type=click.Choice(["en", "ja"]), default="en", show_default=True,
              help="The language of the replies and boards (en English, ja 日本語).")
def demo(game: str, players: int, seed: int, out: Path | None, strategy: str, budget_ms: int, options,
         no_images: bool, db: str | None, lang: str) -> None:
    """AI players (alice, bob, carol, …) play GAME to the end: a PNG per move, an animated GIF, the result
    printed. The game is recorded (and rated) in the database like any other."""
    import games
    from games.core import N, T

    from .i18n import refusal, say
    from .local.demo import run_demo
    from .sessions import SessionError

    try:
        g = games.get(game)
    except KeyError as exc:
        raise click.BadParameter(str(exc.args[0]), param_hint="GAME") from None
    if not g.min_players <= players <= g.max_players:
        span = f"{g.min_players}-{g.max_players}" if g.min_players != g.max_players else str(g.min_players)
        raise click.BadParameter(f"{g.title!s} takes {span} players, not {players}.", param_hint="'--players'")
    bad = [o for o in options if "=" not in o]
    if bad:
        raise click.BadParameter(f"write key=value, not {bad[0]!r}.", param_hint="'--option'")
    opts = dict(o.split("=", 1) for o in options)
    settings = settings_or_exit()
    out = None if no_images else (out or settings.images_dir / f"demo-{game}-{seed}")

    async def main():
        store = await _store(db or settings.database())
        try:
            return await run_demo(store, game, players, seed, out, strategy, opts, budget_ms=budget_ms, lang=lang)
        finally:
            await store.close()

    try:
        res = asyncio.run(main())
    except SessionError as exc:
        raise click.ClickException(say(refusal(exc), lang)) from None
    r = res.update.result
    from games import ranking_text

    for line in res.log[-8:]:
        click.echo(line)
    click.echo(say(T("{moves} {reason}", moves=N("{n} move.", "{n} moves.", n=res.moves), reason=r.reason), lang,
                   lambda p: p))
    click.echo(say(T("Ranking: {ranking}", ranking=ranking_text(r, lambda p: p)), lang))
    if res.images:
        click.echo(say(T("{boards} in {folder}/, animation {gif}", boards=N("{n} board", "{n} boards",
                                                                               n=len(res.images)),
                         folder=str(out), gif=str(res.gif)), lang))


@cli.command()
@click.option("--out", "out", type=click.Path(path_type=Path), required=True, help="Folder for the boards.")
@click.option("--game", "-g", "game_ids", multiple=True, help="Only this game (repeatable; default: every game).")
@click.option("--seed", "-s", default=1, show_default=True, type=SEED, help="Seed of the games (+ player count).")
@click.option("--colour-vision", is_flag=True,
              help="Also each 400 px board in greyscale and as protanopia, deuteranopia, tritanopia see it.")
@click.option("--locale", "lang", type=click.Choice(["en", "ja"]), default="en", show_default=True,
              help="The language of the replies and boards (en English, ja 日本語).")
def gallery(out: Path, game_ids: tuple[str, ...], seed: int, colour_vision: bool, lang: str) -> None:
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
    done = write_gallery(out, list(game_ids) or None, seed, VISIONS if colour_vision else (), lang=lang)
    for entry in done:
        click.echo(f"{entry.game} {entry.players}p: {len(entry.files)} images, {entry.moves} moves")
    click.echo(f"{sum(len(e.files) for e in done)} images in {out}/, open {out / 'index.html'}")


@cli.command()
@click.argument("game")
@click.option("--locale", "lang", type=click.Choice(["en", "ja"]), default="en", show_default=True,
              help="The language of the lesson (en English, ja 日本語).")
@click.option("--name", default="Learner", show_default=True, help="What the lesson calls you.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where each step's board image is written [default: out/learn-GAME].")
@click.option("--no-images", is_flag=True, help="Write no board images.")
def learn(game: str, lang: str, name: str, out_dir: Path | None, no_images: bool) -> None:
    """A guided first game of GAME against the Teacher: each step explains one rule and writes the board it speaks
    of as a PNG (a `[board] path` line); answer with the number of an option (answers are read from stdin, so they
    can be piped). Nothing is stored."""
    from games.core import T

    from .i18n import refusal, say
    from .local.chat import lesson_board
    from .refusals import SessionError
    from .service import lessons

    try:
        page = lessons.page(game)
    except SessionError as exc:
        raise click.BadParameter(say(refusal(exc), lang), param_hint="GAME") from None
    out_dir = out_dir if out_dir is not None else Path("out") / f"learn-{page.game}"
    while True:
        click.echo(lessons.text(page, lang, name, numbered=True))
        if not no_images and page.state is not None and not page.done and not page.wrong:
            out_dir.mkdir(parents=True, exist_ok=True)
            path = out_dir / f"step-{page.step + 1:02d}.png"
            path.write_bytes(lesson_board(page, lang, name))
            click.echo(f"[board] {path}")
        if page.done:
            return
        line = _read_line()
        if line is None:
            sys.exit(1)
        try:
            page = lessons.answer(game, page.path, int(line.strip()) - 1)
        except (ValueError, SessionError):
            click.echo(say(T("Answer with the number of one of the options."), lang))
            page = dataclasses.replace(page, happened=(), wrong=None)


@cli.command()
@click.argument("texts", nargs=-1, required=True)
def glyphs(texts: tuple[str, ...]) -> None:
    """Per TEXT, how many of its characters no bundled font draws: `text=<TEXT> missing=<n>`."""
    from renderers.common import missing_glyphs

    for t in texts:
        click.echo(f"text={t} missing={missing_glyphs(t)}")


@cli.command()
def run() -> None:
    """Run the Discord bot (needs DISCORD_TOKEN in the environment or .env). SIGTERM or Ctrl-C stop it cleanly
    (exit 0)."""
    from .logs import setup_logging

    settings = settings_or_exit()
    setup_logging(settings.log_level, settings.log_format)
    try:
        from .discord.runner import run as run_discord
    except ImportError:
        if settings.discord_token is None:
            click.echo("DISCORD_TOKEN is not set: put it in the environment or .env (see .env.example).", err=True)
            sys.exit(2)
        click.echo("The Discord adapter is not installed in this build.", err=True)
        sys.exit(2)
    end_now(run_discord(settings))


def end_now(code: int) -> NoReturn:
    """End the process with ``code`` once ``run`` returned (the bot stopped: store closed, workers joined, log
    handlers flushed here): skips the interpreter's teardown of a large heap and many modules, which took longer
    than a supervisor's stop grace allows on a busy machine (seconds of garbage collection after "stopped cleanly")."""
    logging.shutdown()
    # the stopped pools' semaphores unlinked and struck off the resource tracker's list, as the interpreter's own
    # exit would (multiprocessing's exit finalizers), whether or not something still holds a pool: else the tracker
    # prints "leaked semaphore" warnings after the process has gone
    multiprocessing.util._run_finalizers(0)
    multiprocessing.active_children()  # reaps the stopped workers
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


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

    settings = settings_or_exit()
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
@click.option("--to", "target", required=True, type=click.Path(path_type=Path),
              help="The new file the copy is written to (never overwritten).")
@click.option("--from", "source", default=None,
              help="The store to copy (default: the settings' store, DATABASE_URL else DATABASE_PATH).")
def backup(target: Path, source: str | None) -> None:
    """A consistent copy of the SQLite store, also while the bot runs (SQLite's online backup): every move committed
    before the copy began is in it. Restore: stop the bot, put the copy at DATABASE_PATH (remove the old file's -wal
    and -shm), start the bot. A PostgreSQL store: use pg_dump (said, exit 2). Exit 1 when the copy fails."""
    from .backup import BackupError
    from .backup import backup as make_backup
    from .store import is_postgres

    store = source or settings_or_exit().database()
    try:
        report = make_backup(store, target)
    except BackupError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2 if is_postgres(store) else 1)
    click.echo(report.line())


@cli.command("sync-commands")
@click.option("--guild", "guild_id", type=click.IntRange(min=1), default=None,
              help="Copy the commands into this server only (they appear at once): for testing.")
@click.option("--clear-guild", "clear_guild", type=click.IntRange(min=1), default=None,
              help="Remove the commands a test sync put into this server.")
@click.option("--print", "print_only", is_flag=True,
              help="Print the JSON list of command payloads Discord would receive; Discord is not contacted.")
def sync_commands(guild_id: int | None, clear_guild: int | None, print_only: bool) -> None:
    """Sync the slash commands to Discord now (globally, or to --guild), or remove a guild's copies
    (--clear-guild). The bot itself syncs at start only when the commands changed since the last sync."""
    from .discord.runner import sync_commands as run_sync

    if clear_guild is not None and (guild_id is not None or print_only):
        raise click.UsageError("--clear-guild goes alone (not with --guild or --print).")
    settings = settings_or_exit()
    if not print_only:
        from .logs import setup_logging

        setup_logging(settings.log_level, settings.log_format)
    sys.exit(run_sync(settings, guild_id=guild_id, clear_guild=clear_guild, print_only=print_only))


@cli.command()
@click.argument("client_id", type=click.IntRange(min=1))
def invite(client_id: int) -> None:
    """Print the URL that adds the bot (application CLIENT_ID) to a server, and the permissions it asks for."""
    from .discord.permissions import INTEGER, NEEDED, SCOPES, invite_url

    click.echo(invite_url(client_id))
    click.echo(f"Scopes: {', '.join(SCOPES)}. Permissions integer: {INTEGER}:")
    for name, why in NEEDED.items():
        click.echo(f"  {name.replace('_', ' ').title()}: {why!s}")  # the CLI speaks English


cli.add_command(forget_user_command)


@cli.group()
def i18n() -> None:
    """Keep the translation catalogues (bot/locales, gettext with Babel): extract, update, compile, check."""


@i18n.command("update")
def i18n_update() -> None:
    """Extract every T()/N() text from the source into bot/locales/<domain>.pot and merge it into each language's
    .po (new texts untranslated, gone ones dropped)."""
    from . import catalogues
    from .discord.bot import command_strings

    for lang, left in catalogues.update(command_strings()).items():
        click.echo(f"{lang}: {left} untranslated")


@i18n.command("compile")
def i18n_compile() -> None:
    """Compile each .po into the .mo the bot reads (run after editing a translation)."""
    from . import catalogues

    for path in catalogues.compile_catalogues():
        click.echo(f"compiled {path.relative_to(catalogues.ROOT)}")


@i18n.command("check")
def i18n_check() -> None:
    """The register of each game's Japanese rules and refusals, then what is wrong with the catalogues
    (untranslated, placeholders, glossary, plain form, unused, not compiled); exit 1 if any."""
    from . import catalogues
    from .discord.bot import command_strings
    from .i18n import LANGUAGES

    commands = command_strings()  # the slash commands' strings, from the command tree built offline
    for line in catalogues.register_lines("ja"):
        click.echo(f"register {line}")
    found = [line for lang in LANGUAGES[1:] for line in catalogues.problems(commands, lang)]
    for line in found:
        click.echo(line)
    click.echo(f"problems={len(found)}")
    sys.exit(1 if found else 0)


def main() -> None:
    cli(prog_name="python -m bot")


if __name__ == "__main__":
    main()
