"""The kinds of irregularity the simulator plants (``tarock simulate --plant-disputes``).

Standard library only, so that the command line can word its help without loading the
simulator; :mod:`tarock_logs.tools.simulate` re-exports :data:`DISPUTE_KINDS`.
"""

from __future__ import annotations

#: The kinds of irregularity ``--plant-disputes`` plants, in the order they are handed out.
DISPUTE_KINDS = (
    "illegal_card", "wrong_score_item", "bad_discard", "bad_kontra", "wrong_placement_points",
)  # fmt: skip
