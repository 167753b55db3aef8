"""Everything with I/O: settings, the session service, the store, the Discord and offline adapters, the CLI."""
