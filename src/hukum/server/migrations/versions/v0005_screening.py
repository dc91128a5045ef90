"""Fair-play screening: the screened rooms, each person's screened seats with the evidence,
and each player's tally.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "screened_rooms",
        sa.Column("room", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("screened_at", WHEN, nullable=False),
    )
    op.create_index("ix_screened_rooms_screened_at", "screened_rooms", ["screened_at"])
    op.create_table(
        "screened_seats",
        sa.Column(
            "room",
            sa.String(16),
            sa.ForeignKey("screened_rooms.room", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("deal", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column(
            "player",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("matters", sa.Integer(), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("unjudged", sa.Integer(), nullable=False),
        sa.Column("evidence", sa.JSON(), nullable=False),
        sa.Column("screened_at", WHEN, nullable=False),
    )
    op.create_index("ix_screened_seats_player", "screened_seats", ["player"])
    op.create_table(
        "screening_tallies",
        sa.Column(
            "player",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("matters", sa.Integer(), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("llr", sa.Float(), nullable=False),
        sa.Column("peak", sa.Float(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("p0", sa.Float(), nullable=False),
        sa.Column("p1", sa.Float(), nullable=False),
        sa.Column("verdict", sa.String(8), nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
    )
    op.create_index("ix_screening_tallies_verdict", "screening_tallies", ["verdict"])


def downgrade() -> None:
    op.drop_table("screening_tallies")
    op.drop_table("screened_seats")
    op.drop_table("screened_rooms")
