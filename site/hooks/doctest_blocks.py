"""A griffe extension for the API reference: a docstring's doctest examples shown as code.

The docstrings are plain text whose examples are doctests (``>>>`` lines and their output); in
Markdown those lines would read as quotes.  Each run of example lines, up to the blank line that
ends it (as doctest reads it), is put in a fenced Python block.
"""

from __future__ import annotations

from typing import Any

try:                          # griffe comes with the docs' extra; the tests run fence without it
    import griffe
except ImportError:           # pragma: no cover
    griffe = None


def fence(text: str) -> str:
    r"""The text with each doctest example fenced.

    >>> fence("Why.\n\n>>> 1 + 1\n2\n\nMore.").splitlines()
    ['Why.', '', '```python', '>>> 1 + 1', '2', '```', '', 'More.']
    """
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        starts = line.lstrip().startswith(">>>")
        if starts and not inside:
            out.append("```python")
            inside = True
        elif inside and not line.strip():
            out.append("```")
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)


if griffe is not None:
    class DoctestBlocks(griffe.Extension):
        """Fences the examples of every docstring mkdocstrings renders."""

        def on_object(self, *, obj: Any, **kwargs: Any) -> None:
            if obj.docstring is not None:
                obj.docstring.value = fence(obj.docstring.value)
