"""The read path's targets (issue #47), declared once for bench-check.py and bench-summary.py.

TARGETS: (numerator impl, denominator impl, least throughput ratio), per pattern.
COLD_FLOOR: the floor of a first scan that keeps what it reads, as (numerator, denominator).
REMOTE_TARGETS: as TARGETS, for the store behind the shaping proxy (REMOTE_STORE, ReadPathBenchmark's
`store` parameter: 2 ms a request, 1 Gbit/s), where the link and not the host's CPU bounds a read.
"""

TARGETS = [
    ("dtap-disk", "local", 0.90),
    ("cnode-disk", "local", 0.85),
    ("dtap-warm", "local", 1.30),
    ("dtap-cold", "s3a", 0.90),
]
COLD_FLOOR = ("s3a-keep", "s3a")
REMOTE_STORE = "2ms/1000"
REMOTE_TARGETS = [
    ("dtap-cold", "s3a", 0.98),
]
LOOPBACK = "loopback"
