"""Online play with strangers: the quick-match pools (:mod:`~hukum.server.play.pool`),
the ratings of rated matches (:mod:`~hukum.server.play.results`), and what they keep
(:mod:`~hukum.server.play.models`). The pure logic (pairing, rating) is in
:mod:`hukum.online`."""
