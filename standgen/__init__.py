"""standgen: a static-site publisher for game tournaments.

The pipeline runs one way: ``load`` (events tree -> model) -> ``formats`` ->
``tiebreaks`` -> ``standings`` -> ``pairing`` -> ``site``.
"""

__version__ = "0.1.0"
