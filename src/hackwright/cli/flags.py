"""Flags in ``--help`` without a value type.

Typer's rich help shows each option's type beside it, a flag's too: ``--json <bool>``
reads as if the flag took a value (``--json true``). A flag takes none, so its type
column is left empty; options that take a value keep theirs (``--seed <int>``).
Imported once by ``hackwright.cli``; a Typer without that column is left as it is.
"""

from __future__ import annotations

from typing import Any, Optional

from typer.core import TyperOption

_typed = getattr(TyperOption, "display_type_rich", None)


def _flag_untyped(self: TyperOption, ctx: Any) -> Optional[str]:
    if getattr(self, "is_flag", False) and not getattr(self, "count", False):
        return None  # --json, --no-record, --resume/--no-resume, --help: nothing follows them
    return _typed(self, ctx)


if _typed is not None and getattr(_typed, "__name__", "") != _flag_untyped.__name__:
    TyperOption.display_type_rich = _flag_untyped
