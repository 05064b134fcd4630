"""the server heartbeat and the outages the clocks leave out

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-05

``server_heartbeat`` holds one row that every running server process stamps
every few seconds; a process that finds the stamp stale stores the gap in
``outages`` (no process ran then), and game clocks charge nobody for it.  The
row starts without a stamp: the time before this revision is not known.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    beat = op.create_table(
        "server_heartbeat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("beat_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.bulk_insert(beat, [{"id": 1, "beat_at": None}])
    op.create_table(
        "outages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("outages")
    op.drop_table("server_heartbeat")
