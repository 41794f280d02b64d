"""What the table and its web page agree on, defined once, below both.

The table (``coyote_pi.table``) writes records, photos and the bulletin and reads the
page's requests; the page (``coyote_pi.web``), a process of its own, does the opposite.
Each fact they share lives here, in modules that import nothing of the package, so the
page takes it without loading the table's controller and neither side can change a name
the other still looks for:

- :mod:`~coyote_pi.contract.page`: the bulletin's and requests' file names, and the
  camera states ``live.json`` says;
- :mod:`~coyote_pi.contract.records`: the records' file names, their photos folders,
  and the ``public/`` and ``requests/`` folders beside the records of a simulated table.
"""
