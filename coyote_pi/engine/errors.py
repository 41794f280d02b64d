"""The one error the engine raises for anything a table may not do."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action or observation the rules do not allow at this point.

    ``str(error)`` is a sentence a player understands ("seat 3 cannot challenge right
    after peeking"). ``code`` names the rule for programs (the controller translates
    it for the OLED), and ``params`` holds the values the sentence mentions.
    """

    def __init__(self, message: str, *, code: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
