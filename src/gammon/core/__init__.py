"""The rules of backgammon, once: positions, plays, variants, dice, cube, games, matches."""
