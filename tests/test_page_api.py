"""The page's request() (service/static/api.js) under Node, against stand-in fetches.

A request aborted while its answer's body comes (the analysis board asks
again when the position changes) must end as an abort, which the page
ignores, and a body cut short as the service out of reach: both once
passed for an empty answer, and the analysis board then said "Analysis
failed: Cannot read properties of null (reading 'scores')" under load.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from node_support import node_program

pytestmark = pytest.mark.slow  # a Node process

HARNESS = Path(__file__).with_name("page_api.mjs")


def test_a_body_aborted_or_cut_short_is_an_abort_or_unreachable_never_an_empty_answer() -> None:
    ran = subprocess.run(
        [node_program(), str(HARNESS)], capture_output=True, text=True, check=True, timeout=60
    )
    results = json.loads(ran.stdout)
    assert results["aborted_in_body"]["abort"] is True
    assert results["cut_in_body"]["error"] == "Unreachable"
    assert results["whole"] == {"value": {"scores": []}}
    assert results["empty"] == {"value": None}  # a 204: nothing to say
    assert results["refused"]["error"] == "Refused"
    assert results["refused"]["code"] == "offer_refused"
