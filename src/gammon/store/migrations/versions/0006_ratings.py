"""FIBS ratings: each account's rating and records, each finished match's result

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04

``player_ratings`` (rating, experience, rated and vs-computer records per account),
``match_results`` (one row per finished match and account, keyed so that a match
counts once) and ``account_seats.address_hash`` (a hash of the address a seat was
taken from: two accounts playing from one address are flagged).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_ratings",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("rating", sa.Float(precision=53), nullable=False),
        sa.Column("experience", sa.Integer(), nullable=False),
        sa.Column("rated_wins", sa.Integer(), nullable=False),
        sa.Column("rated_losses", sa.Integer(), nullable=False),
        sa.Column("computer_wins", sa.Integer(), nullable=False),
        sa.Column("computer_losses", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_ratings_board", "player_ratings", ["experience", "rating"])
    op.create_table(
        "match_results",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("opponent_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="SET NULL"),
                  nullable=True),
        sa.Column("match_length", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("rating_before", sa.Float(precision=53), nullable=False),
        sa.Column("rating_after", sa.Float(precision=53), nullable=False),
        sa.Column("experience_after", sa.Integer(), nullable=False),
        sa.Column("same_address", sa.Boolean(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_match_results_account", "match_results", ["account_id", "finished_at"])
    with op.batch_alter_table("account_seats") as batch:
        batch.add_column(sa.Column("address_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("account_seats") as batch:
        batch.drop_column("address_hash")
    op.drop_index("ix_match_results_account", "match_results")
    op.drop_table("match_results")
    op.drop_index("ix_player_ratings_board", "player_ratings")
    op.drop_table("player_ratings")
