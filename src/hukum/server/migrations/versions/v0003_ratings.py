"""Rated play: ratings per pool, rated matches and their seats.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column(
            "player",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("pool", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("finished", sa.Integer(), nullable=False),
        sa.Column("left", sa.Integer(), nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
    )
    op.create_index("ix_ratings_updated_at", "ratings", ["updated_at"])
    op.create_table(
        "rated_matches",
        sa.Column("room", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("pool", sa.String(16), nullable=False),
        sa.Column("rated_at", WHEN, nullable=False),
    )
    op.create_index("ix_rated_matches_pool", "rated_matches", ["pool"])
    op.create_index("ix_rated_matches_rated_at", "rated_matches", ["rated_at"])
    op.create_table(
        "rated_seats",
        sa.Column(
            "room",
            sa.String(16),
            sa.ForeignKey("rated_matches.room", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column(
            "player",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("bot", sa.String(16), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("team", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("left", sa.Boolean(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=True),
        sa.Column("sigma_before", sa.Float(), nullable=True),
        sa.Column("mu_after", sa.Float(), nullable=True),
        sa.Column("sigma_after", sa.Float(), nullable=True),
    )
    op.create_index("ix_rated_seats_player", "rated_seats", ["player"])


def downgrade() -> None:
    op.drop_table("rated_seats")
    op.drop_table("rated_matches")
    op.drop_table("ratings")
