"""The read path's targets (issue #47), declared once for bench-check.py and bench-summary.py.

TARGETS: (numerator impl, denominator impl, least throughput ratio), per pattern.
COLD_FLOOR: the floor of a first scan that keeps what it reads, as (numerator, denominator).
"""

TARGETS = [
    ("dtap-disk", "local", 0.90),
    ("cnode-disk", "local", 0.85),
    ("dtap-warm", "local", 1.30),
    ("dtap-cold", "s3a", 0.90),
]
COLD_FLOOR = ("s3a-keep", "s3a")
