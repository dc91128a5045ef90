"""Fair-play screening judged against chance: each screened seat keeps its deal's
log-likelihood ratio (``llr``), and the tallies lose the fixed rates ``p0`` and ``p1`` of the
former test.

The former test's tallies cannot be carried over (a stored seat keeps no chance for its
misses), so the screenings are deleted: the screened rooms, their seats and every tally
(the moderators' reports already filed are kept). The server's catch-up then finds every
finished rated and challenge room unscreened and screens it again under the new test,
oldest first.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels = None
depends_on = None


def _forget_screenings() -> None:
    """Delete every screening (the seats first: they refer to their room)."""
    op.execute(sa.text("DELETE FROM screened_seats"))
    op.execute(sa.text("DELETE FROM screened_rooms"))
    op.execute(sa.text("DELETE FROM screening_tallies"))


def upgrade() -> None:
    _forget_screenings()
    # In batches: SQLite adds a NOT NULL column and drops columns by copying the table.
    with op.batch_alter_table("screened_seats") as batch:
        batch.add_column(sa.Column("llr", sa.Float(), nullable=False))
    with op.batch_alter_table("screening_tallies") as batch:
        batch.drop_column("p0")
        batch.drop_column("p1")


def downgrade() -> None:
    _forget_screenings()  # the former test cannot take the new tallies over either
    with op.batch_alter_table("screening_tallies") as batch:
        batch.add_column(sa.Column("p0", sa.Float(), nullable=False))
        batch.add_column(sa.Column("p1", sa.Float(), nullable=False))
    with op.batch_alter_table("screened_seats") as batch:
        batch.drop_column("llr")
