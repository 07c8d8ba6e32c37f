"""`dwh report`: the page (report.py), the pieces every section is made of (report_parts.py), and
its sections of agreement with uncertainty, datasets, judges and the replacement test."""
