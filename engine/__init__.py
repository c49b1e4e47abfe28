"""The rules of backgammon: positions, legal plays, notation, IDs, cube and match. No I/O."""
