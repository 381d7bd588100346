"""A griffe extension for the API reference: a docstring's doctest examples shown as code, and
its Sphinx roles as code.

The docstrings are plain text whose examples are doctests (``>>>`` lines and their output); in
Markdown those lines would read as quotes.  Each run of example lines, up to the blank line that
ends it (as doctest reads it), is put in a fenced Python block.  A Sphinx role (``:func:`x```,
``:meth:`x```), which Markdown would show raw, is shown as the code it names.
"""

from __future__ import annotations

import re
from typing import Any

try:                          # griffe comes with the docs' extra; the tests run fence without it
    import griffe
except ImportError:           # pragma: no cover
    griffe = None


ROLE = re.compile(r":(?:py:)?(?:func|meth|class|mod|data|attr|exc|obj):`~?([^`]+)`")


def roles(text: str) -> str:
    """The text with each Sphinx role written as the code it names.

    >>> roles("See :func:`engine.judging.proof.fight_proof` and :meth:`~Engine.deal`.")
    'See `engine.judging.proof.fight_proof` and `Engine.deal`.'
    """
    return ROLE.sub(lambda m: f"`{m.group(1)}`", text)


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
        """Fences the examples and unwraps the roles of every docstring mkdocstrings renders."""

        def on_object(self, *, obj: Any, **kwargs: Any) -> None:
            if obj.docstring is not None:
                obj.docstring.value = fence(roles(obj.docstring.value))
