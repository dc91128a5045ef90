"""The hukum web server: lobby API, game WebSockets, tables as actors over an event log.

See docs/protocol.md for the wire protocol; :func:`hukum.server.app.create_app` builds the
app and ``hukum serve`` runs it. (Nothing is imported here, so that the ``hukum`` command
starts quickly.)
"""
