"""Parts of the session service (:mod:`bot.sessions`), each a class with a small hook into it."""
