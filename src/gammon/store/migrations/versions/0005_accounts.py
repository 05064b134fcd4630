"""player accounts, their sessions and the seats they hold

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04

``accounts`` (name, its unique folded key, the Argon2id hash), ``account_sessions``
(keyed by the SHA-256 of the session id, deleted with the account) and
``account_seats`` (the seats an account took while logged in).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(200), nullable=False, unique=True),
        sa.Column("name_skeleton", sa.String(200), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("password_changed_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_account_sessions_account", "account_sessions", ["account_id"])
    op.create_table(
        "account_seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_account_seats_account", "account_seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_account_seats_account", "account_seats")
    op.drop_table("account_seats")
    op.drop_index("ix_account_sessions_account", "account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
