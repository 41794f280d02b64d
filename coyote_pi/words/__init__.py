"""The table's and the page's words, in the language of the table.

- :mod:`~coyote_pi.words.translator` turns a text key and its parameters into the text
  of one language, from the gettext catalogs of :mod:`coyote_pi.locale`.
- :mod:`~coyote_pi.words.verdict` explains a verdict: what was counted and why, for the
  OLED and the web page alike.

Both the table (:mod:`coyote_pi.table`) and the page (:mod:`coyote_pi.web`) read them, so
they sit below both.
"""
