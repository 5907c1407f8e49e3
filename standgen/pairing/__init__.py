"""Pairing: each format's rule on top of one shared matching core (``core``)."""
