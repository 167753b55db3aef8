"""The session service is a facade of verbs over composed parts (:mod:`bot.service`): no mixins, no verb that
hands out the store, and no adapter reaching the store through the service."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import bot.service
from bot.sessions import SessionService
from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]
ADAPTERS = [*sorted((ROOT / "bot" / "discord").glob("*.py")), *sorted((ROOT / "bot" / "local").glob("*.py")),
            ROOT / "bot" / "privacy.py", ROOT / "bot" / "__main__.py"]


def test_the_service_and_its_parts_are_plain_classes():
    assert SessionService.__mro__ == (SessionService, object)
    parts = [cls for path in sorted(Path(bot.service.__file__).parent.glob("*.py"))
             for cls in vars(__import__(f"bot.service.{path.stem}", fromlist=["_"])).values()
             if inspect.isclass(cls) and cls.__module__ == f"bot.service.{path.stem}"]
    mixed = [cls.__qualname__ for cls in parts if len(cls.__mro__) > 2 and not any(
        getattr(b, "_is_protocol", False) or b.__name__ in ("Exception", "BaseModel") for b in cls.__mro__[1:-1])]
    assert len(parts) >= 10 and mixed == []


async def test_no_verb_of_the_service_returns_the_store(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        service = SessionService(store)
        handed = [name for name in dir(SessionService) if not name.startswith("_") and name != "store"
                  and isinstance(inspect.getattr_static(SessionService, name), property)
                  and getattr(service, name) is store]
        parts = {name: part for name, part in vars(service).items() if name != "store"}
        assert handed == [] and all(part is not store for part in parts.values())
    finally:
        await store.close()


def test_adapters_reach_no_store_through_the_service():
    reaching = [f"{path.relative_to(ROOT)}:{n}" for path in ADAPTERS
                for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if re.search(r"service\.store\b", line)]
    assert reaching == []
