"""One commit per round: a run's outputs become visible together or not at all.

``agot adjudicate --game GAME`` writes everything a run gives (the round's
``report.md``, ``log.jsonl``, ``board.svg`` or ``pending.yaml``, and the next
round's folder with its ``state.yaml`` and ``orders/``) into a staging folder
``GAME/.agot-staging-XXXX/`` with a ``manifest.json`` naming where each file
goes (a file name, or ``mail/NAME`` in the round's mail folder), then renames
the staging folder to ``GAME/.agot-commit/``. That one
rename is the commit point:

- a run stopped before it leaves the record as it was (a stale staging
  folder, removed by the next writer and ignored by replay);
- a run stopped after it leaves ``.agot-commit/``, the marker of a committed
  but unfinished round: the next ``agot adjudicate --game`` moves its files
  into place (each move is a rename, and repeating one is harmless) before
  anything else, and ``agot replay`` reports it as a difference (exit 4) until
  then.

Files are created with mode 0666 and directories 0777, less the umask. All of
it runs under the game directory lock (:mod:`~agot_adjudicator.io.lock`).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agot_adjudicator.errors import UsageError

COMMIT_DIR = ".agot-commit"
STAGING_PREFIX = ".agot-staging-"
MANIFEST = "manifest.json"


# Every change to the file system goes through _fs, so that tests can stop a run at
# each write point (tests/test_commit.py).
def _fs(op: str, *args: Any) -> Any:
    if op == "write":
        return _write_all(*args)
    if op == "mkdir":
        return os.mkdir(args[0], 0o777)
    if op == "rename":
        return os.rename(*args)
    if op == "replace":
        return os.replace(*args)
    if op == "unlink":
        return Path(args[0]).unlink(missing_ok=True)
    if op == "rmtree":
        return shutil.rmtree(args[0], ignore_errors=True)
    raise ValueError(op)  # pragma: no cover


def _write_all(path: Path, data: bytes) -> None:
    """Write ``data`` (complete: os.write may write less) to the new file ``path``."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def _write(path: Path, text: str) -> None:
    _fs("write", path, text.encode("utf-8"))


@dataclass(frozen=True)
class RoundCommit:
    """What one run commits: files of the round folder, files it removes, the next round."""

    round: str
    files: dict[str, str]
    remove: tuple[str, ...] = ()
    next_round: str | None = None
    next_state: str | None = None
    next_orders: bool = True
    next_files: dict[str, str] | None = None
    """Files of the next round besides its state (``orders/HOUSE.yaml`` and
    ``received/0000-HOUSE.yaml``: the plans that stand into it, RUL-P8-6)."""


def _sync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def stage(game_dir: Path, commit: RoundCommit) -> Path:
    """Write a staging folder for ``commit``; remove it again on an error."""
    staging = game_dir / f"{STAGING_PREFIX}{os.urandom(6).hex()}"
    _fs("mkdir", staging)
    try:
        _fs("mkdir", staging / "round")
        for folder in sorted({name.split("/")[0] for name in commit.files if "/" in name}):
            _fs("mkdir", staging / "round" / folder)
        for name, text in commit.files.items():
            _write(staging / "round" / name, text)
        nexts = commit.next_files or {}
        if commit.next_round is not None:
            _fs("mkdir", staging / "next")
            folders = {"orders"} if commit.next_orders else set()
            for folder in sorted(folders | {name.split("/")[0] for name in nexts if "/" in name}):
                _fs("mkdir", staging / "next" / folder)
            _write(staging / "next" / "state.yaml", commit.next_state or "")
            for name, text in nexts.items():
                _write(staging / "next" / name, text)
        manifest = {"round": commit.round, "files": sorted(commit.files),
                    "remove": list(commit.remove), "next": commit.next_round,
                    "next_files": sorted(nexts)}
        _write(staging / MANIFEST, json.dumps(manifest, indent=1) + "\n")
        _sync_dir(staging)
    except Exception:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return staging


def commit_round(game_dir: str | os.PathLike[str], commit: RoundCommit) -> None:
    """Stage, commit with one rename, then move the files into place (see module doc)."""
    root = Path(game_dir)
    if (root / COMMIT_DIR).exists():
        raise UsageError(f"{root / COMMIT_DIR}: an unfinished commit is in the way")
    for name in commit.files:  # what cannot be replaced is found before anything is written
        target = root / commit.round / name
        folder = target.parent
        if "/" in name and (folder.is_symlink() or (folder.exists() and not folder.is_dir())):
            raise NotADirectoryError(errno.ENOTDIR, "not a folder agot can write the round's "
                                     f"{name} in (a link or a file); remove it", str(folder))
        if target.is_dir() and not target.is_symlink():
            raise IsADirectoryError(errno.EISDIR, "is a directory; cannot write the round's "
                                    f"{name} there", str(target))
    if not os.access(root / commit.round, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, "cannot write in this folder",
                              str(root / commit.round))
    staging = stage(root, commit)
    _fs("rename", staging, root / COMMIT_DIR)
    _sync_dir(root)
    apply_commit(root)


def _manifest(root: Path) -> dict[str, Any]:
    from agot_adjudicator.io.safefile import ReadRefused, read_bounded

    path = root / COMMIT_DIR / MANIFEST
    try:
        data = json.loads(read_bounded(path, 64 * 1024, root=root).decode("utf-8"))
    except (ReadRefused, UnicodeDecodeError, ValueError) as exc:
        raise UsageError(f"{path}: the commit marker is unreadable ({exc}); restore the game "
                         "directory from a copy") from None
    ok = (isinstance(data, dict) and isinstance(data.get("round"), str)
          and isinstance(data.get("files"), list) and isinstance(data.get("remove"), list)
          and isinstance(data.get("next_files", []), list)
          and all(isinstance(f, str) and _file_name(f) for f in [
              *data["files"], *data["remove"], *data.get("next_files", [])])
          and (data.get("next") is None or isinstance(data.get("next"), str)))
    names = [data["round"], data.get("next") or "round-00"] if ok else []
    if not ok or not all(n.startswith("round-") and "/" not in n for n in names):
        raise UsageError(f"{path}: not a commit marker agot wrote; restore the game directory "
                         "from a copy")
    return data


def _file_name(name: str) -> bool:
    """A name a commit may write: ``NAME`` or ``SUBFOLDER/NAME``, never hidden, never ``..``.

    >>> [_file_name(n) for n in ("report.md", "mail/stark.eml", "../x", ".a", "a/b/c", "a/")]
    [True, True, False, False, False, False]
    """
    parts = name.split("/")
    return 1 <= len(parts) <= 2 and all(p and not p.startswith(".") for p in parts)


def pending_commit(game_dir: str | os.PathLike[str]) -> str | None:
    """The round an interrupted commit belongs to, or None when there is none."""
    root = Path(game_dir)
    if not (root / COMMIT_DIR).exists() and not (root / COMMIT_DIR).is_symlink():
        return None
    try:
        return str(_manifest(root)["round"])
    except UsageError:
        return "(unknown round)"


def apply_commit(root: Path) -> str:
    """Move a committed round's files into place and remove the marker; return the round.

    Every step can be repeated: a file already moved is not in the marker any more.
    """
    data = _manifest(root)
    marker = root / COMMIT_DIR
    target = root / data["round"]
    for name in data["files"]:
        src = marker / "round" / name
        if src.exists():
            if "/" in name and not (target / name).parent.is_dir():
                _fs("mkdir", (target / name).parent)
            _fs("replace", src, target / name)
    for name in data["remove"]:
        if name not in data["files"]:
            _fs("unlink", target / name)
    if data.get("next"):
        src = marker / "next"
        dest = root / data["next"]
        if src.exists():
            if not dest.exists():
                _fs("rename", src, dest)
            else:  # a folder made by hand for the next round's orders
                if (src / "state.yaml").exists():
                    _fs("replace", src / "state.yaml", dest / "state.yaml")
                if (src / "orders").exists() and not (dest / "orders").exists():
                    _fs("mkdir", dest / "orders")
                for name in data.get("next_files", []):
                    if (src / name).exists():
                        if not (dest / name).parent.is_dir():
                            _fs("mkdir", (dest / name).parent)
                        _fs("replace", src / name, dest / name)
    _sync_dir(target)
    # The marker goes with one rename (what is left is a stale staging folder), then away.
    done = root / f"{STAGING_PREFIX}done-{os.urandom(6).hex()}"
    _fs("rename", marker, done)
    _sync_dir(root)
    _fs("rmtree", done)
    return str(data["round"])


def recover(game_dir: str | os.PathLike[str]) -> str | None:
    """Under the lock: drop stale staging folders, finish an interrupted commit.

    Returns the round whose commit was finished, or None.
    """
    root = Path(game_dir)
    for child in sorted(root.iterdir()):
        if child.name.startswith(STAGING_PREFIX) and child.is_dir() and not child.is_symlink():
            _fs("rmtree", child)
    if (root / COMMIT_DIR).exists() or (root / COMMIT_DIR).is_symlink():
        if (root / COMMIT_DIR).is_symlink() or not (root / COMMIT_DIR).is_dir():
            raise UsageError(f"{root / COMMIT_DIR}: not a commit marker agot wrote; remove it "
                             "and check the record with `agot replay`")
        return apply_commit(root)
    return None


def new_round_dir(game_dir: str | os.PathLike[str], name: str, state: str) -> Path:
    """Create ``GAME/NAME/`` holding ``state.yaml`` and ``orders/`` with one rename."""
    root = Path(game_dir)
    staging = root / f"{STAGING_PREFIX}{os.urandom(6).hex()}"
    _fs("mkdir", staging)
    try:
        _fs("mkdir", staging / "orders")
        _write(staging / "state.yaml", state)
        _fs("rename", staging, root / name)
    except Exception:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return root / name / "state.yaml"


# --- several files outside game directories ---------------------------------------------

def distinct_outputs(paths: Sequence[tuple[str, str | None]]) -> None:
    """Refuse (exit 2) two outputs that name the same file: ``(option, path)`` pairs."""
    from agot_adjudicator.io.writing import same_file

    given = [(option, path) for option, path in paths if path]
    for i, (option, path) in enumerate(given):
        for other_option, other in given[:i]:
            if same_file(path, other):
                raise UsageError(f"{other_option} {other} and {option} {path} name the same "
                                 "file; give each output its own file")


def linked_inside(root: str | os.PathLike[str], targets: Sequence[str | os.PathLike[str]]
                  ) -> list[Path]:
    """The folders between ``root`` and each target that are symlinks (or are not folders):
    writing through one would put a file outside ``root`` (issue 27). ``root`` itself may be a
    link: the user named it."""
    base = Path(root)
    bad: list[Path] = []
    for target in targets:
        try:
            parts = Path(target).relative_to(base).parts[:-1]
        except ValueError:
            continue
        folder = base
        for part in parts:
            folder = folder / part
            if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
                if folder not in bad:
                    bad.append(folder)
                break
    return bad


def write_together(outputs: Sequence[tuple[str | os.PathLike[str], str | bytes]], *,
                   root: str | os.PathLike[str] | None = None) -> None:
    """Write several files (text as UTF-8, or bytes as they are): every one is written to a
    temporary file next to it first, and only when all are written are they renamed into place
    (an error writes nothing). With ``root`` (an output folder: ``site -o``, ``replay -o``),
    a symlink inside it on the way to a file is refused before anything is written, never
    followed; a file that is a symlink is replaced by the rename, never written through."""
    if root is not None:
        bad = linked_inside(root, [path for path, _ in outputs])
        if bad:
            raise UsageError(f"{bad[0]}: a symlink (or not a folder) inside the output folder "
                             f"{root}; refusing to write through it (remove it, or choose "
                             "another -o folder); nothing written")
    temps: list[tuple[Path, Path]] = []
    try:
        for path, text in outputs:
            target = Path(path)
            directory = target.parent if str(target.parent) else Path(".")
            directory.mkdir(parents=True, exist_ok=True)
            tmp = directory / f".{target.name}.{os.urandom(4).hex()}.tmp"
            _write_all(tmp, text if isinstance(text, bytes) else text.encode("utf-8"))
            temps.append((tmp, target))
        for tmp, target in temps:
            os.replace(tmp, target)
    finally:
        for tmp, _ in temps:
            tmp.unlink(missing_ok=True)
