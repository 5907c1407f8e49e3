"""event.toml and season.toml: parsed and checked key by key (data contract section 1)."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import tomllib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from standgen.errors import Problem
from standgen.formats import FORMATS
from standgen.formats.base import EVERY_FORMAT_OPTIONS, Format
from standgen.formats.roundrobin import PAIRING_CHOICES, PAIRING_OPTION
from standgen.load.files import display, read_text, suggest
from standgen.load.markdown_limits import check_markdown
from standgen.load.values import MAX_TOML_DEPTH, number_problem, toml_problems
from standgen.model import (
    LANGUAGES,
    PUBLISH_DEFAULTS,
    TEAMS_APART,
    TEAMS_COLUMNS,
    EventConfig,
    Season,
    Source,
    TeamRules,
)
from standgen.options import Option
from standgen.stages.cut import CUT_OPTION, cut_problems
from standgen.teams.tiebreaks import TEAM_TIEBREAKS
from standgen.tiebreaks import TIEBREAKS

EVENT_KEYS = ("name", "date", "format", "rounds", "seed", "tiebreaks", "scenarios",
              "location", "organiser", "url", "options", "teams", "publish",
              "lists_public", "language")
SEASON_KEYS = ("name", "description", "points", "language")
# [options] every two-player format understands, validated alongside the format's own
COMMON_OPTIONS = (PAIRING_OPTION, CUT_OPTION)
MAX_ROUNDS = 99  # the most rounds an event may plan (docs/data-contract.md)
COMMON_CHOICES = {PAIRING_OPTION.key: PAIRING_CHOICES}


def read_toml(
    path: Path, problems: list[Problem], multiline: tuple[str, ...] = ()
) -> tuple[dict[str, Any], str] | None:
    """Return a TOML file's table and text, or None after recording why it is unusable.

    Every value is checked right after parsing (:func:`standgen.load.values.toml_problems`):
    no control character in any string, no ``inf`` or ``nan``, no nesting deeper than
    :data:`~standgen.load.values.MAX_TOML_DEPTH`; the top-level keys in ``multiline`` may
    hold line breaks. Nesting too deep for tomllib's recursion is a problem too.
    """
    text = read_text(path, problems)
    if text is None:
        return None
    try:
        data = tomllib.loads(text)
    except RecursionError:  # tomllib recurses once per level of nested arrays and tables
        problems.append(Problem(display(path), 1, "holds lists or tables nested too deeply to "
                                f"read; no key needs more than {MAX_TOML_DEPTH} levels"))
        return None
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        line = int(match.group(1)) if match else 1
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        problems.append(Problem(display(path), line, f"is not valid TOML ({reason}); "
                                "strings need quotes, dates look like 2026-03-14"))
        return None
    found = toml_problems(data, display(path), lambda key: key_line(text, key), multiline)
    if found:
        problems.extend(found)
        return None
    return data, text


def key_line(text: str, key: str) -> int:
    """Return the line on which ``key`` is set, or 1.

    Blanks are matched within the line only: a leading ``\\s*`` also ran over line
    breaks, so it named a blank line before the key and took time quadratic in a run of
    blank lines (40,000 of them: 7 s).
    """
    key = re.escape(key)
    pattern = re.compile(rf"^[ \t]*{key}[ \t]*=|^[ \t]*\[[ \t]*{key}[ \t]*\]", re.M)
    match = pattern.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else 1


def unknown_keys(
    data: dict[str, Any], text: str, known: tuple[str, ...], where: str
) -> list[Problem]:
    """Return a problem for each key of a TOML table that is not in ``known``."""
    return [
        Problem(where, key_line(text, key), f"unknown key '{key}'"
                + (suggest(key, known) or "; keys are: " + ", ".join(known)))
        for key in data if key not in known
    ]


def default_seed(path: tuple[str, ...]) -> int:
    """Return the seed derived from the event path, so builds are reproducible."""
    return int(hashlib.sha256("/".join(path).encode()).hexdigest()[:8], 16)


def load_event_config(
    path: Path, slugs: tuple[str, ...], problems: list[Problem]
) -> EventConfig | None:
    """Return event.toml as an EventConfig, recording every problem found."""
    parsed = read_toml(path, problems)
    if parsed is None:
        return None
    data, text = parsed
    where = display(path)
    start = len(problems)

    def bad(key: str, message: str) -> None:
        problems.append(Problem(where, key_line(text, key), message))

    problems.extend(unknown_keys(data, text, EVENT_KEYS, where))
    name, date, fmt_id, fmt = _check_heading(data, bad)
    rounds, seed = _check_rounds_and_seed(data, slugs, bad)
    tiebreaks = _check_tiebreaks(data, bad)
    scenarios = _check_scenarios(data, bad)
    url = _check_texts(data, bad)
    publish, lists_public, language = _check_publishing(data, bad)
    options = _check_options_table(data, fmt, rounds, bad)
    teams = _teams_of(data.get("teams", {}), fmt, bad)
    if teams.matches and fmt is not None and fmt.seats != 2:
        bad("matches", "[teams] matches = true is for two-player formats (a team match is "
            "games between two teams); remove it")
    if teams.matches and not _is_int(rounds):
        bad("matches", "[teams] matches = true needs 'rounds', the team rounds to play "
            "(e.g. rounds = 5)")
    if len(problems) > start:
        return None
    assert isinstance(name, str) and isinstance(date, dt.date) and isinstance(fmt_id, str)
    return EventConfig(
        name=name.strip(), date=date, format=fmt_id, rounds=rounds, seed=seed,
        tiebreaks=tuple(tiebreaks), scenarios=tuple(scenarios),
        location=data.get("location", ""), organiser=data.get("organiser", ""),
        url=url, options=dict(options), publish=publish,
        option_lines={key: key_line(text, key) for key in options},
        lists_public=lists_public, teams=teams, language=language,
    )


LISTS_PUBLIC_WORDS = ("event-start", "round-1", "never")


def _lists_public(value: object, bad: Callable[[str, str], None]) -> str:
    """Return ``lists_public`` as the model keeps it: a word, or an ISO date and time with
    its offset (UTC when none is given); "" when unset or wrong (after recording it)."""
    from standgen.clock import parse_moment

    if value == "" or value in LISTS_PUBLIC_WORDS:
        return str(value)
    moment = (parse_moment(value) if isinstance(value, str)
              else parse_moment(value.isoformat()) if isinstance(value, dt.datetime) else None)
    if moment is None:
        bad("lists_public", "'lists_public' must be \"event-start\", \"round-1\", \"never\" "
            "or a date and time such as 2026-04-18T09:00:00+01:00")
        return ""
    return moment.isoformat()


TEAMS_KEYS = ("apart", "counted", "size", "column", "matches", "match_points", "tiebreaks",
              "best")
MAX_TEAM_RESULTS = 999
MAX_TEAM_SIZE = 64


def _check_teams(table: object, bad: Callable[[str, str], None]) -> TeamRules:
    """Return ``[teams]`` (docs/teams.md) as TeamRules, recording each bad key: ``apart``
    (the rounds team-mates are kept apart in), ``counted`` (the best N members' scores
    make the team's), ``size`` (the players a team should have) and ``column`` (the
    players.csv column naming the teams: ``team``, or ``club`` for club-mates)."""
    if not isinstance(table, dict):
        bad("teams", "'teams' must be a table: [teams] on its own line")
        return TeamRules()
    for key in table:
        if key not in TEAMS_KEYS:
            bad(key, f"unknown key '{key}' under [teams]{suggest(key, TEAMS_KEYS)}; "
                "[teams] takes " + ", ".join(TEAMS_KEYS))
    apart = table.get("apart", "round-1")
    if apart not in TEAMS_APART:
        bad("apart", f"[teams] apart {apart!r} must be one of "
            + ", ".join(f'"{a}"' for a in TEAMS_APART)
            + " (the rounds in which team-mates are not paired against each other)")
        apart = "round-1"
    numbers = _team_numbers(table, bad)
    column = table.get("column", "team")
    if column not in TEAMS_COLUMNS:
        bad("column", f"[teams] column {column!r} must be \"team\" (players.csv's team "
            "column) or \"club\" (each club is a team)")
        column = "team"
    matches = _team_matches(table.get("matches", False), numbers["size"], bad)
    return TeamRules(apart=apart, counted=numbers["counted"], size=numbers["size"],
                     column=column, matches=matches,
                     match_points=_match_points(table.get("match_points"), bad),
                     best=_team_best(table, numbers["counted"], matches, bad))


def _team_best(table: dict[str, Any], counted: int | None, matches: bool,
               bad: Callable[[str, str], None]) -> int | None:
    """Return [teams] ``best``: the best N results of a team's members make its score, a
    whole number from 1 to :data:`MAX_TEAM_RESULTS`; not with ``counted`` (members'
    scores) or ``matches`` (None when not set or wrong, recorded)."""
    value = table.get("best")
    if value is None:
        return None
    if wanted := number_problem(value, 1, MAX_TEAM_RESULTS, integer=True):
        bad("best", f"[teams] best must be {wanted} (the results that make a team's score)")
        return None
    if counted is not None or matches:
        bad("best", "[teams] best (the best N results of the members) cannot go with "
            + ("counted (the best N members' scores): keep one" if counted is not None
               else "matches = true (teams play matches): remove best"))
        return None
    return int(value)


def _team_numbers(table: dict[str, Any],
                  bad: Callable[[str, str], None]) -> dict[str, int | None]:
    """Return [teams] ``counted`` and ``size``: whole numbers from 1 to
    :data:`MAX_TEAM_SIZE`, None when not set or wrong (recorded)."""
    numbers: dict[str, int | None] = {}
    for key in ("counted", "size"):
        value = table.get(key)
        if value is not None and (wanted := number_problem(value, 1, MAX_TEAM_SIZE,
                                                           integer=True)):
            bad(key, f"[teams] {key} must be {wanted}")
            value = None
        numbers[key] = value
    return numbers


def _team_matches(matches: object, size: int | None, bad: Callable[[str, str], None]) -> bool:
    """Return [teams] ``matches``: true or false (false when wrong, recorded); team matches
    need ``size``, the games of each match, from 3 to 8 (docs/teams.md)."""
    if not isinstance(matches, bool):
        bad("matches", "[teams] matches must be true (teams play team matches, paired in "
            "teams-round-N.csv) or false")
        return False
    if matches and (size is None or not 3 <= size <= 8):
        bad("matches", "[teams] matches = true needs [teams] size, the games of each team "
            "match, from 3 to 8 (e.g. size = 5)")
    return matches


def _teams_of(table: object, fmt: Format | None, bad: Callable[[str, str], None],
              ) -> TeamRules:
    """Return ``[teams]`` with the team tie-breaks of a team-vs-team event."""
    teams = _check_teams(table, bad)
    if teams.matches and fmt is not None and isinstance(table, dict):
        teams = replace(teams, tiebreaks=_team_tiebreaks(table.get("tiebreaks"), fmt, bad))
    return teams


def _team_tiebreaks(value: object, fmt: Format, bad: Callable[[str, str], None],
                    ) -> tuple[str, ...]:
    """Return ``[teams] tiebreaks`` of a team-vs-team event, the team tie-breaks after
    match points (docs/teams.md, "Chess team standings"): the format's default
    (``Format.team_tiebreaks``) when not set; a format ranking teams by Wins takes none."""
    if value is None:
        return fmt.team_tiebreaks
    if not fmt.team_tiebreaks:
        bad("tiebreaks", f"[teams] tiebreaks is for a format ranking teams by match points "
            f"(chess: swiss); {fmt.id} ranks teams by Wins, SoS, TP: remove it")
        return ()
    known = tuple(t for t in TEAM_TIEBREAKS if t != "mp")
    if not isinstance(value, list) or any(v not in known for v in value):
        bad("tiebreaks", "[teams] tiebreaks must be a list of team tie-breaks after match "
            "points, from " + ", ".join(f'"{t}"' for t in known)
            + ' (e.g. ["emgsb", "bh-mp", "gp"])')
        return fmt.team_tiebreaks
    return tuple(value)


def _match_points(value: object, bad: Callable[[str, str], None],
                  ) -> tuple[float, float, float]:
    """Return ``[teams] match_points``, the match points of a match won, drawn and lost
    (FIDE C.07's 2, 1, 0 when not set), recording a bad value."""
    default = (2.0, 1.0, 0.0)
    if value is None:
        return default
    if (not isinstance(value, list) or len(value) != 3
            or any(isinstance(v, bool) or not isinstance(v, int | float) for v in value)
            or not value[0] >= value[1] >= value[2] >= 0):
        bad("match_points", "[teams] match_points must be three numbers, the match points "
            "of a match won, drawn and lost, from high to low (e.g. [2, 1, 0])")
        return default
    return (float(value[0]), float(value[1]), float(value[2]))


def language_problem(value: object) -> str:
    """Return the message for a ``language`` the site has no translation for."""
    return (f"'language' {value!r} must be one of " + ", ".join(f'"{v}"' for v in LANGUAGES)
            + " (English, German, French, Spanish, Italian, Dutch, Polish, Czech, Japanese)")


def publish_problem(key: str, value: object) -> str:
    """Return the message for a site's or event's ``publish`` default that is not one
    (docs/privacy.md)."""
    return (f"'{key}' {value!r} must be one of " + ", ".join(f'"{v}"' for v in PUBLISH_DEFAULTS)
            + " (a pseudonym is set per player, in players.csv)")


# the names TOs also call the formats by (game systems, games), for "did you mean"
FORMAT_NAMES = {
    "warmachine": "steamroller", "hordes": "steamroller", "wmh": "steamroller",
    "chess": "swiss", "fide": "swiss", "dutch": "swiss", "go": "mcmahon", "baduk": "mcmahon",
    "weiqi": "mcmahon", "old world": "old-world", "oldworld": "old-world",
    "the old world": "old-world", "warhammer": "old-world", "tow": "old-world",
    "dip": "diplomacy",
}


def unknown_format(word: object) -> str:
    """Return the message for an unknown format id, with the format meant where the word
    is another name of one (``warmachine``: steamroller) or a near miss of an id."""
    text = str(word)
    meant = FORMAT_NAMES.get(" ".join(text.lower().replace("_", " ").split()))
    close = suggest(text, sorted(FORMATS)).removeprefix("; ")
    hint = f" (did you mean '{meant}'?)" if meant else (f" ({close})" if close else "")
    return f"unknown format {word!r}{hint}; use one of: " + ", ".join(sorted(FORMATS))


def _check_heading(
    data: dict[str, Any], bad: Callable[[str, str], None]
) -> tuple[Any, Any, Any, Format | None]:
    """Check event.toml's required 'name', 'date' and 'format' (data contract section 1).

    Return the three values as read, and the format they name (None when unknown).
    """
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        bad("name", "'name' is required: the event's title in quotes, e.g. name = \"Spring Open\"")
    date = data.get("date")
    if not isinstance(date, dt.date) or isinstance(date, dt.datetime):
        bad("date", "'date' is required and must be a date without quotes, e.g. date = 2026-03-14")
    fmt_id = data.get("format")
    fmt = FORMATS.get(fmt_id) if isinstance(fmt_id, str) else None
    if fmt_id is None:
        bad("format", "'format' is required: one of " + ", ".join(sorted(FORMATS))
            + ', in quotes, e.g. format = "steamroller"')
    elif fmt is None:
        bad("format", unknown_format(fmt_id))
    return name, date, fmt_id, fmt


def _check_rounds_and_seed(data: dict[str, Any], slugs: tuple[str, ...],
                           bad: Callable[[str, str], None]) -> tuple[Any, Any]:
    """Check event.toml's 'rounds' (a whole number from 1 to :data:`MAX_ROUNDS`, data
    contract "Values: ranges and limits") and 'seed' (a whole number; by default
    :func:`default_seed` of the event's path, so builds are reproducible); return both
    as read."""
    rounds = data.get("rounds")
    if rounds is not None and (wanted := number_problem(rounds, 1, MAX_ROUNDS, integer=True)):
        bad("rounds", f"'rounds' must be {wanted}")
    seed = data.get("seed", default_seed(slugs))
    if not _is_int(seed):
        bad("seed", "'seed' must be a whole number")
    return rounds, seed


def _check_scenarios(data: dict[str, Any], bad: Callable[[str, str], None]) -> Any:
    """Check event.toml's 'scenarios': a list of names in quotes (data contract
    "event.toml"); return it ([] if unusable)."""
    scenarios = data.get("scenarios", [])
    if not _str_list(scenarios):
        bad("scenarios", "'scenarios' must be a list of names in quotes")
        scenarios = []
    return scenarios


def _check_publishing(data: dict[str, Any],
                      bad: Callable[[str, str], None]) -> tuple[Any, str, Any]:
    """Check event.toml's 'publish' (a name of :data:`PUBLISH_DEFAULTS`, docs/privacy.md),
    'lists_public' (:func:`_lists_public`) and 'language' (a name of :data:`LANGUAGES`);
    return the three."""
    publish = data.get("publish", "")
    if publish and publish not in PUBLISH_DEFAULTS:
        bad("publish", publish_problem("publish", publish))
    lists_public = _lists_public(data.get("lists_public", ""), bad)
    language = data.get("language", "")
    if language and language not in LANGUAGES:
        bad("language", language_problem(language))
    return publish, lists_public, language


def _check_options_table(data: dict[str, Any], fmt: Format | None, rounds: Any,
                         bad: Callable[[str, str], None]) -> Any:
    """Check event.toml's [options]: a table, whose keys the format takes
    (:func:`_check_options`), and a two-player format's [options.cut] against the rounds
    (:func:`cut_problems`); return it ({} if not a table)."""
    options = data.get("options", {})
    if not isinstance(options, dict):
        bad("options", "'options' must be a table: [options] on its own line")
        return {}
    if fmt is not None:
        _check_options(options, fmt, bad)
        if fmt.seats == 2 and isinstance(options.get("cut"), dict):
            for key, message in cut_problems(options["cut"],
                                             rounds if _is_int(rounds) else None):
                bad(key, message)
    return options


def _check_tiebreaks(data: dict[str, Any], bad: Callable[[str, str], None]) -> Any:
    """Check event.toml's 'tiebreaks': known ids, each once; return the list ([] if unusable)."""
    tiebreaks = data.get("tiebreaks", [])
    if not _str_list(tiebreaks):
        bad("tiebreaks", "'tiebreaks' must be a list of tiebreak ids in quotes")
        tiebreaks = []
    for tb in tiebreaks:
        if tb not in TIEBREAKS:
            bad("tiebreaks", f"unknown tiebreak '{tb}'" + (suggest(tb, list(TIEBREAKS))
                or "; ids are: " + ", ".join(sorted(TIEBREAKS))))
    if len(set(tiebreaks)) != len(tiebreaks):
        bad("tiebreaks", "a tiebreak is listed twice; list each once")
    return tiebreaks


def _check_texts(data: dict[str, Any], bad: Callable[[str, str], None]) -> Any:
    """Check event.toml's free-text keys and that 'url' is a web address; return the url."""
    for key in ("location", "organiser", "url"):
        if not isinstance(data.get(key, ""), str):
            bad(key, f"'{key}' must be text in quotes")
    url = data.get("url", "")
    if isinstance(url, str) and url and urlparse(url).scheme not in ("http", "https"):
        bad("url", "'url' must start with http:// or https://")
    return url


def _check_options(
    options: dict[str, Any], fmt: Format, bad: Callable[[str, str], None]
) -> None:
    """Check event.toml's [options] against the options the format (and every format) takes."""
    known = {**{o.key: o for o in EVERY_FORMAT_OPTIONS}, **{o.key: o for o in fmt.options}}
    if fmt.seats == 2:
        known = {**{o.key: o for o in COMMON_OPTIONS}, **known}
    for key, value in options.items():
        option = known.get(key)
        if option is None:
            bad(key, f"unknown option '{key}' for format {fmt.id}"
                + (suggest(key, list(known)) or "; options are: "
                   + (", ".join(sorted(known)) or "none")))
        elif wrong := _option_problem(key, value, option):
            bad(key, wrong)


def _option_problem(key: str, value: object, option: Option) -> str:
    """Return what is wrong with an option's value ("" if nothing): the option's type,
    then its bounds, then the choices an option every format takes allows."""
    if not _matches(value, option.type):
        return f"option '{key}' must be {_type_name(option.type)}"
    if option.bounds is not None and (wanted := number_problem(
            value, *option.bounds, integer=option.type is int)):
        return f"option '{key}' must be {wanted}"
    if key in COMMON_CHOICES and value not in COMMON_CHOICES[key]:
        return (f"option '{key}' must be one of: "
                + ", ".join(f'"{c}"' for c in COMMON_CHOICES[key]))
    return ""


def _season_description_problems(description: object, text: str,
                                 where: str) -> list[Problem]:
    """Return the problems of season.toml's description: text in quotes, Markdown within
    the limits of every untrusted text (load.markdown_limits), each at its line in the
    file."""
    if not isinstance(description, str):
        return [Problem(where, key_line(text, "description"),
                        "'description' must be text in quotes")]
    found: list[Problem] = []
    check_markdown(description, where, found)
    first = key_line(text, "description")
    # a multi-line string opened at the end of the key's line starts on the next line
    opening = text.splitlines()[first - 1] if found else ""
    first += opening.rstrip().endswith(('"""', "'''"))
    return [replace(p, line=first + p.line - 1) for p in found]


def load_season(
    path: Path, slugs: tuple[str, ...], problems: list[Problem]
) -> Season | None:
    """Return season.toml as a Season, recording every problem found."""
    parsed = read_toml(path, problems, multiline=("description",))
    if parsed is None:
        return None
    data, text = parsed
    where = display(path)
    start = len(problems)
    problems.extend(unknown_keys(data, text, SEASON_KEYS, where))
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append(Problem(where, key_line(text, "name"),
                                "'name' is required: the season's title in quotes"))
    description = data.get("description", "")
    problems.extend(_season_description_problems(description, text, where))
    if not isinstance(data.get("points", {}), dict):
        problems.append(Problem(where, key_line(text, "points"),
                                "'points' must be a table: [points] on its own line"))
    language = data.get("language", "")
    if language and language not in LANGUAGES:
        problems.append(Problem(where, key_line(text, "language"), language_problem(language)))
    if len(problems) > start:
        return None
    assert isinstance(name, str)
    assert isinstance(description, str)
    return Season(path=slugs, name=name.strip(), description=description,
                  points=data.get("points", {}), source=Source(where), language=language)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _str_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _matches(value: object, expected: type | tuple[type, ...]) -> bool:
    types = expected if isinstance(expected, tuple) else (expected,)
    if isinstance(value, bool):
        return bool in types
    if isinstance(value, int) and float in types:
        return True
    return isinstance(value, types)


def _type_name(expected: type | tuple[type, ...]) -> str:
    names = {bool: "true or false", int: "a whole number", float: "a number",
             str: "text in quotes", list: "a list", dict: "a table"}
    types = expected if isinstance(expected, tuple) else (expected,)
    return " or ".join(names.get(t, t.__name__) for t in types)
