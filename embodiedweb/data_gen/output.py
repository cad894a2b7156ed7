"""What every generator of a shipped data file does at the end: write the file, or (``--check``) compare."""

from __future__ import annotations

from pathlib import Path


def write_or_check(path: Path, text: str, check: bool, module: str) -> int:
    """Write ``text`` to ``path`` (creating its folder), or with ``check`` only compare it with the file;
    prints what it did and returns the exit status (1: the shipped file is stale)."""
    if check:
        same = path.exists() and path.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{path} is stale: rerun python -m {module}")
        return 0 if same else 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0
