"""Diplomacy tournaments: board results, game scoring systems, MCS and board seeding.

``scoring`` scores one board under each system; ``mcs`` compares every result with the
event's average for that power (seed 001); ``seeding`` draws the boards of a round;
``tiebreaks`` holds the Diplomacy tiebreaks. The format itself is
``standgen.formats.diplomacy``.
"""
