"""The built-in releases' landers, one module per source (duo.py, redial.py, dices.py with the
DICES headers and vocabularies in dices_columns.py), each named by its entry in common/sources.py
and imported only when its source is landed."""
