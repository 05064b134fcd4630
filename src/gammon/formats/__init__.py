"""Talking to the rest of the field: Position ID, Match ID, XGID, move notation, files."""
