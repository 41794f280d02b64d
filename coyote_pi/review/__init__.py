"""After the game, every decision judged (docs/review.md).

- :mod:`~coyote_pi.review.valuation`: the one seam to the strong level, the value of each
  legal move (its chance of losing the round) from a seat's view;
- :mod:`~coyote_pi.review.judge`: a finished record's decisions rebuilt, each seat's view
  then, each decision judged, and the summary per seat;
- :mod:`~coyote_pi.review.texts`: a review in words, in the table's languages.

It sits beside the configuration and the words, below the table: the web page reads it
without loading the table.
"""
