"""Parts of the session service that are about members rather than one table: a member's games across channels
(:mod:`.members`), how a member is told (:mod:`.notifications`), a game's pace (:mod:`.pace`) and a member's time
away (:mod:`.away`)."""
