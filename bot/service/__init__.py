"""Parts of the session service (:class:`bot.sessions.SessionService` is their facade)."""
