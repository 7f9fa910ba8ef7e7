"""The subcommands of ``linewise``: one module each, defining ``register(commands)``."""
