"""single-use invitations and the actor of each action

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

Before this revision the guest's seat token *was* the invitation: whoever held
the link could act for the guest.  Now an invitation is stored apart
(``invite_token_hash``) and consumed when used (``invite_used_at``); joining
issues the guest a fresh seat token.  Games still waiting for their guest move
the seat's hash to the invitation, so their links keep working once.  Guests
who joined before this revision keep their token (it is the only one they
have).  ``actions.actor`` names the token that acted (None for older rows).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("invite_token_hash", sa.String(64), nullable=True))
    op.add_column("games", sa.Column("invite_used_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("actions", sa.Column("actor", sa.String(40), nullable=True))
    games = sa.table("games", sa.column("id", sa.String), sa.column("seats", sa.JSON),
                     sa.column("seat0_token_hash", sa.String), sa.column("seat1_token_hash", sa.String),
                     sa.column("invite_token_hash", sa.String))
    conn = op.get_bind()
    rows = conn.execute(sa.select(games.c.id, games.c.seats, games.c.seat0_token_hash,
                                  games.c.seat1_token_hash)).all()
    for gid, seats, h0, h1 in rows:
        for seat, stored in ((0, h0), (1, h1)):
            info = seats[seat] if isinstance(seats, list) and len(seats) == 2 else {}
            if stored and info.get("kind") == "human" and not info.get("joined"):
                conn.execute(sa.update(games).where(games.c.id == gid).values(
                    {"invite_token_hash": stored, f"seat{seat}_token_hash": None}))


def downgrade() -> None:
    games = sa.table("games", sa.column("seat0_token_hash", sa.String),
                     sa.column("seat1_token_hash", sa.String), sa.column("invite_token_hash", sa.String),
                     sa.column("invite_used_at", sa.DateTime))
    for seat in (0, 1):
        other = games.c[f"seat{1 - seat}_token_hash"]
        op.execute(sa.update(games).where(games.c[f"seat{seat}_token_hash"].is_(None), other.is_not(None),
                                          games.c.invite_used_at.is_(None))
                   .values({f"seat{seat}_token_hash": games.c.invite_token_hash}))
    op.drop_column("actions", "actor")
    op.drop_column("games", "invite_used_at")
    op.drop_column("games", "invite_token_hash")
