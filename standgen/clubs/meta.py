"""The meta: how factions (Diplomacy: powers) fare, with how sure we can be (issue #20).

Win rates come with a 95 % Wilson score interval (Wilson 1927; the interval recommended
by Brown, Cai and DasGupta 2001 for small samples), counting a draw as half a win as the
standings do; small samples are shown with their wide intervals, never hidden. The
matchup matrix counts, for each pair of factions, the games between them and the first
faction's score share. Only games played over the board count (no byes, absences or
forfeits), and mirror matches are counted once per side.
"""

from __future__ import annotations

import pandas as pd

from standgen.clubs.intervals import Z95, wilson

__all__ = ["Z95", "board_matchups", "faction_table", "matchup_matrix", "matchups", "wilson"]

def faction_table(games: pd.DataFrame) -> pd.DataFrame:
    """Return one row per format and faction: games, wins, draws, losses, score share
    (a draw half), its 95 % Wilson interval, and for Diplomacy solos, draws and average
    points, best score share first."""
    played = games[(games["kind"] == "played") & (games["faction"] != "")]
    if played.empty:
        return pd.DataFrame(columns=["format", "faction", "games", "wins", "draws", "losses",
                                     "score", "low", "high", "solos", "average_points"])
    counted = played.assign(wins=(played["outcome"] == "win").astype("int64"),
                            draws=(played["outcome"] == "draw").astype("int64"),
                            losses=(played["outcome"] == "loss").astype("int64"),
                            solos=(played["result"] == "solo").astype("int64"))
    table = counted.groupby(["format", "faction"], sort=True).agg(
        games=("outcome", "size"), wins=("wins", "sum"), draws=("draws", "sum"),
        losses=("losses", "sum"), solos=("solos", "sum"),
        average_points=("points", "mean")).reset_index()
    shares = (table["wins"] + 0.5 * table["draws"]) / table["games"]
    bounds = [wilson(w + 0.5 * d, n) for w, d, n in
              zip(table["wins"], table["draws"], table["games"], strict=True)]
    table["score"] = shares.round(4)
    table["low"] = [round(low, 4) for low, _ in bounds]
    table["high"] = [round(high, 4) for _, high in bounds]
    table["average_points"] = table["average_points"].round(3)
    return table.sort_values(["format", "score", "faction"], ascending=[True, False, True],
                             ignore_index=True)[
        ["format", "faction", "games", "wins", "draws", "losses", "score", "low", "high",
         "solos", "average_points"]]


def matchups(games: pd.DataFrame, fmt: str) -> pd.DataFrame:
    """Return the faction x faction matrix of one format, long form: ``faction``,
    ``against``, ``games`` and the faction's score share with its Wilson interval, for
    every pair that met in a two-player game."""
    two = games[(games["format"] == fmt) & (games["kind"] == "played") & (games["seats"] == 2)
                & (games["faction"] != "") & (games["opponent_factions"] != "")]
    if two.empty:
        return pd.DataFrame(columns=["faction", "against", "games", "score", "low", "high"])
    scored = two.assign(value=two["outcome"].map({"win": 1.0, "draw": 0.5, "loss": 0.0}))
    grouped = scored.groupby(["faction", "opponent_factions"], sort=True)["value"]
    table = grouped.agg(games="size", total="sum").reset_index().rename(
        columns={"opponent_factions": "against"})
    bounds = [wilson(t, n) for t, n in zip(table["total"], table["games"], strict=True)]
    table["score"] = (table["total"] / table["games"]).round(4)
    table["low"] = [round(low, 4) for low, _ in bounds]
    table["high"] = [round(high, 4) for _, high in bounds]
    return table[["faction", "against", "games", "score", "low", "high"]]


def matchup_matrix(games: pd.DataFrame, fmt: str) -> pd.DataFrame:
    """Return the matchup matrix of one format as a pivot: rows the faction, columns the
    opponent's faction, cells "score share (games)", empty where they never met."""
    long = matchups(games, fmt)
    if long.empty:
        return pd.DataFrame()
    long = long.assign(cell=[f"{s:.0%} ({n})" for s, n in
                             zip(long["score"], long["games"], strict=True)])
    return long.pivot(index="faction", columns="against", values="cell").fillna("")


def board_matchups(games: pd.DataFrame, fmt: str) -> pd.DataFrame:
    """Return the power x power matrix of one format's boards (games of more than two
    seats: Diplomacy), long form as :func:`matchups`: for each pair of powers that sat at
    one board, the boards they shared and how often the first finished above the second
    (more points the event gave; equal points count half), with its Wilson interval."""
    boards = games[(games["format"] == fmt) & (games["kind"] == "played")
                   & (games["seats"] > 2) & (games["faction"] != "")]
    if boards.empty:
        return pd.DataFrame(columns=["faction", "against", "games", "score", "low", "high"])
    seats = boards[["event", "round", "table", "player", "faction", "points"]]
    pairs = seats.merge(seats, on=["event", "round", "table"], suffixes=("", "_other"))
    pairs = pairs[pairs["player"] != pairs["player_other"]]
    above = (pairs["points"] > pairs["points_other"]).astype("float64")
    level = (pairs["points"] == pairs["points_other"]).astype("float64")
    scored = pairs.assign(value=above + 0.5 * level, against=pairs["faction_other"])
    table = scored.groupby(["faction", "against"], sort=True)["value"].agg(
        games="size", total="sum").reset_index()
    bounds = [wilson(t, n) for t, n in zip(table["total"], table["games"], strict=True)]
    table["score"] = (table["total"] / table["games"]).round(4)
    table["low"] = [round(low, 4) for low, _ in bounds]
    table["high"] = [round(high, 4) for _, high in bounds]
    return table[["faction", "against", "games", "score", "low", "high"]]
