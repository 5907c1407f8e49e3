"""Stages: the cut after the Swiss (issue #31), as pure functions on the rules floor.

An event is its Swiss rounds, then, when ``[options.cut]`` says so, an elimination
bracket seeded by the Swiss standings: ``cut`` reads the option, ``bracket`` lays the
bracket out (Magic Tournament Rules 10.4: 1v8, 4v5, 2v7, 3v6, byes to the top seeds),
``progress`` reads the cut rounds' results, pairs the next one and orders the final
standings. Nothing here reads files.
"""

