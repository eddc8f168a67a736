"""A short seeded run of bench/fuzz_mail.py (issue 27): no traceback, hang, run over the memory
cap or accepted-but-altered submission across mutated .eml, mbox and Maildir input."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "fuzz_mail.py"


def test_a_short_seeded_fuzz_run_finds_nothing():
    spec = importlib.util.spec_from_file_location("fuzz_mail", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_mail"] = module
    spec.loader.exec_module(module)
    out = io.StringIO()
    counts = module.fuzz(300, None, 7, 4096, out=out)
    assert counts["runs"] == 300
    assert counts["tracebacks"] == counts["hangs"] == counts["over the cap"] == 0, out.getvalue()
    assert counts["altered"] == 0, out.getvalue()
    assert counts["neutral as sent"] > 20  # the neutral ones are read as sent
