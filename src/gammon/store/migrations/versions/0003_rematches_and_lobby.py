"""rematches and the lobby

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

``games.rematch_id`` links a finished game to its rematch (set once: of two
players asking at the same moment one creates it and the other joins it);
``games.public`` lists a game waiting for its guest in the lobby.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("rematch_id", sa.String(32), nullable=True))
    op.add_column("games", sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index("ix_games_public_status", "games", ["public", "status"])


def downgrade() -> None:
    op.drop_index("ix_games_public_status", table_name="games")
    op.drop_column("games", "public")
    op.drop_column("games", "rematch_id")
