"""The daily challenge: a challenge per day, its deals, and each player's entries.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("day", sa.Date(), primary_key=True),
        sa.Column("preset", sa.String(16), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_table(
        "challenge_deals",
        sa.Column(
            "day",
            sa.Date(),
            sa.ForeignKey("challenges.day", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("seed", sa.String(48), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("preset", sa.String(16), nullable=False),
    )
    op.create_table(
        "challenge_entries",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column(
            "player",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("room", sa.String(16), sa.ForeignKey("rooms.code"), nullable=False),
        sa.Column("started_at", WHEN, nullable=False),
        sa.Column("finished_at", WHEN, nullable=True),
        sa.Column("tens", sa.Integer(), nullable=True),
        sa.Column("tricks", sa.Integer(), nullable=True),
        sa.Column("won", sa.Boolean(), nullable=True),
        sa.UniqueConstraint("day", "number", "player", name="uq_challenge_entry"),
        sa.UniqueConstraint("room"),
    )
    op.create_index("ix_challenge_entries_day", "challenge_entries", ["day"])
    op.create_index("ix_challenge_entries_player", "challenge_entries", ["player"])


def downgrade() -> None:
    op.drop_table("challenge_entries")
    op.drop_table("challenge_deals")
    op.drop_table("challenges")
