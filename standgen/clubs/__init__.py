"""Clubs' data across events (issue #20): the archive as a tidy pandas table, ratings
(OpenSkill, FIDE), the meta of factions and powers, and the export of all of it."""
