"""Who is playing (issue 41): guests and accounts, their sessions, preferences, blocks,
reports and moderators' sanctions. :mod:`~hukum.server.identity.models` holds the tables,
:mod:`~hukum.server.identity.sessions` the cookie and the ``current_player`` dependency."""
