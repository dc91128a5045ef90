"""The online floor's decisions, as pure functions (DESIGN.md, "The online floor"): no HTTP,
no database, no clock of their own. The server stores, schedules and talks; what a name may
be, and (in later issues) how a wave pairs players and how ratings move, is decided here.
"""
