"""Rooms and their event logs.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rooms_finished", "rooms", ["finished"])
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room", sa.String(16), sa.ForeignKey("rooms.code"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("room", "number", name="uq_events_room_number"),
    )
    op.create_index("ix_events_room", "events", ["room"])


def downgrade() -> None:
    op.drop_index("ix_events_room", "events")
    op.drop_table("events")
    op.drop_index("ix_rooms_finished", "rooms")
    op.drop_table("rooms")
