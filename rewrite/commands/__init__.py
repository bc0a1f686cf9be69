"""Subcommands of the ``rewrite`` CLI; see :data:`rewrite.cli.COMMANDS`."""
