"""Files a reader may see while they are written: whole, or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def replace_file(path: Path, text: str) -> None:
    """Write *text* to *path* atomically: to a temporary file beside it, then
    renamed over it, so that a reader sees the old file or the new one,
    whole, and a killed build leaves no half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
        os.chmod(temporary, 0o666 & ~_umask())  # as open() would create it, not mkstemp's 0600
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    # The only way to read it is to set it; set back at once.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
