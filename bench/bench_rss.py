"""Benchmark: peak resident memory of ``agot adjudicate`` (a full round) against the floors.

Not a test. Run: ``python bench/bench_rss.py``. Each command runs alone in a child process and its
peak RSS is read with ``resource.getrusage(RUSAGE_CHILDREN)`` (the maximum over children so far,
so the floors run first, smallest first). Target: adjudicate <= 2 x the import floor (bare
interpreter + ``import agot_adjudicator``).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import FLOORS, ROOT, adjudicate_cmd, child_env, round_files


def peak_rss_kib(cmd: list[str], env: dict[str, str]) -> int:
    """Peak RSS (KiB) of ``cmd``, measured in a fresh grandchild so earlier runs do not count."""
    # posix_spawn, not fork: a forked child would start with a copy of the probe's own pages
    # and count them in its peak.
    probe = ("import os, resource, sys; pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ, "
             "file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0), "
             "(os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]); "
             "assert os.waitpid(pid, 0)[1] == 0; "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", probe, *cmd], capture_output=True, text=True,
                          env=env, check=True, cwd=ROOT)
    return int(done.stdout.strip())


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="agot-bench-") as tmp:
        work = Path(tmp)
        env = child_env(work / "pycache")
        files = round_files(work)
        cmd = adjudicate_cmd(files, work)
        for warm in (*FLOORS.values(), cmd):  # fill the pyc cache first: compiling costs memory
            subprocess.run(warm, env=env, capture_output=True, check=True, cwd=ROOT)
        floors = {name: peak_rss_kib(c, env) for name, c in FLOORS.items()}
        rss = peak_rss_kib(cmd, env)
    for name, kib in floors.items():
        print(f"floor {name:12s} {kib / 1024:7.1f} MiB")
    print(f"agot adjudicate    {rss / 1024:7.1f} MiB")
    for name, kib in floors.items():
        mark = "  (target <= 2)" if name == "deps" else ""
        print(f"ratio to {name:9s} {rss / kib:7.2f}{mark}")
    print(f"(resource.getrusage ru_maxrss; {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss} KiB "
          "for this script itself)")


if __name__ == "__main__":
    main()
