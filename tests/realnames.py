"""Realistic player fields for tests: names as real events have them.

Shared by the event-day simulation, the browser tests and the desk tests, so that every
test that says "real names" means the same thing: many languages and scripts, diacritics
that do not decompose (Ł, Ø, ß), apostrophes, 40-character double-barrelled names, two
players of the same name, and long faction names. Everything comes from a seeded
``random.Random``: the same seed gives the same field.
"""

from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import dataclass

GIVEN = (
    "Björn", "Satō", "Olúwaṣeun", "Łukasz", "Søren", "Zoë", "Chloé", "Jiří", "Dvořák",
    "Mårten", "Ángel", "Siobhán", "Niamh", "Dan", "Hana", "Vera", "Věra", "Wojciech",
    "François", "Ines", "Íñigo", "Małgorzata", "Kateřina", "Grzegorz", "Ólafur", "Þóra",
    "Kenji", "Yūko", "Ngozi", "Chiamaka", "Thandiwe", "Mateus", "João", "Conceição",
    "Oliver", "Liam", "Katarzyna", "Bartholomew", "Anne-Sophie", "Jean-Luc", "D'Arcy",
)
FAMILY = (
    "Müller", "García", "Ó Conchúir", "O'Neill", "Svobodová", "Wiśniewska", "Straße",
    "Nowakowska-Wiśniewska", "Featherstonehaugh-Cho", "Müller-Schwarzenberg", "Nakamura",
    "Sato", "Ødegård", "Ðorđević", "Kovačević", "Şahin", "Yılmaz", "Brennan", "Smith",
    "van der Berg", "de la Cruz", "Mac an tSaoi", "Ní Bhriain", "Adébáyọ̀", "Nguyễn",
    "Lefèvre", "Dubois", "Østergaard", "Jørgensen", "Kowalczyk", "Dąbrowski",
)
LONG = (
    "Katarzyna Nowakowska-Wiśniewska",
    "Bartholomew Featherstonehaugh-Cho",
    "Anne-Sophie Müller-Schwarzenberg de la Cruz",  # 42 characters
    "Olúwaṣeun Adébáyọ̀-Featherstonehaugh",
    "Maximiliane Hohenzollern-Sigmaringen",
    "Siobhán Ní Bhriain-Ó Conchúir",
)
FACTIONS = (
    "Convergence of Cyriss", "Retribution of Scyrah", "Protectorate of Menoth",
    "Circle Orboros", "Trollbloods", "Khador", "Cygnar", "Cryx", "Legion of Everblight",
    "Crucible Guard", "Infernals", "Grymkin: The Wicked Harvest", "Mercenaries",
    "Warriors of Chaos", "Kingdom of Bretonnia", "Tomb Kings of Khemri",
    "Empire of Man", "Dwarfen Mountain Holds", "Orc & Goblin Tribes",
)
CLUBS = (
    "Łódź Gamers", "Club d'échecs de Saint-Étienne", "Leeds", "Göteborgs Go-klubb",
    "Brno", "Kraków Wargames", "Dublin", "Zürich", "São Paulo", "Tōkyō Igo",
)


@dataclass(frozen=True)
class Person:
    """One player as a test field has them: a slug id, a display name, a faction, a club."""

    id: str
    name: str
    faction: str
    club: str


def fold(text: str) -> str:
    """Return ``text`` as people type it on a phone: lower case, accents and marks gone,
    letters that do not decompose transliterated (Ł->l, Ø->o, ß->ss, Đ->d, Þ->th)."""
    special = {"ł": "l", "ø": "o", "ß": "ss", "đ": "d", "ð": "d", "þ": "th", "æ": "ae",
               "œ": "oe", "ı": "i"}
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(special.get(c, c) for c in text if not unicodedata.combining(c))
    return text


def slug(name: str) -> str:
    """Return a slug for ``name`` (the ids TOs make: ``bjorn-m``)."""
    words = re.findall(r"[a-z0-9]+", fold(name))
    if not words:
        return "p"
    return "-".join([words[0], words[-1][0]]) if len(words) > 1 else words[0]


def field(rng: random.Random, size: int, *, same_name: bool = True,
          long_names: bool = True) -> list[Person]:
    """Return ``size`` players with unique ids and realistic names.

    With ``same_name`` (and at least two players) two players share one name, as two
    "Oliver Smith"s do at real events. With ``long_names`` the field holds the longest
    names of ``LONG``.
    """
    names: list[str] = []
    if long_names:
        names.extend(rng.sample(LONG, min(len(LONG), max(1, size // 3))))
    while len(names) < size:
        names.append(f"{rng.choice(GIVEN)} {rng.choice(FAMILY)}")
    names = names[:size]
    rng.shuffle(names)
    if same_name and size >= 2:
        names[-1] = names[0] = "Oliver Smith"
    people: list[Person] = []
    used: set[str] = set()
    for name in names:
        base = slug(name)
        pid, n = base, 2
        while pid in used:
            pid, n = f"{base}{n}", n + 1
        used.add(pid)
        people.append(Person(pid, name, rng.choice(FACTIONS), rng.choice(CLUBS)))
    return people
