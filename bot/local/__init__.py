"""Offline adapters: the terminal sandbox, the transcript runner and the AI demo (no Discord needed)."""
