"""Extract the message ids of the interface from the code and merge them into the catalogues.

    python scripts/extract_messages.py          # write messages.pot, update sl.po and de.po
    python scripts/extract_messages.py --check  # only say what is missing or stale (exit 1)

The ids are what ``t``/``tr`` (labels), ``tn`` (counted labels, with their plural) are called
with in the dashboard and the wording modules, the tables of label ids those modules keep, the
consequences of findings kept with the rulesets' quotations, and the meanings of every finding
code (context ``<game>:<code>`` / ``audit:<code>``) (``tests/report/i18n_ids.py`` finds them;
the suite checks the catalogues against the same extraction). Merging keeps every existing
translation, adds the new ids untranslated and drops the ones nobody uses; the catalogues'
``Plural-Forms`` come from Babel's locale data.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.report.i18n_ids import finding_meanings, used_msgids, used_plurals  # noqa: E402

I18N = ROOT / "tarock_logs" / "report" / "i18n"


def template() -> Catalog:
    """The catalogue template: every id the code uses."""
    pot = Catalog(project="tarock-logs", version="0.1.0", charset="utf-8")
    for msgid, files in sorted(used_msgids().items()):
        pot.add(msgid, locations=[(f, 0) for f in sorted(set(files))])
    for (one, many), files in sorted(used_plurals().items()):
        pot.add((one, many), locations=[(f, 0) for f in sorted(set(files))])
    for ctx, meaning in sorted(finding_meanings().items()):
        pot.add(meaning, context=ctx)
    return pot


def main(argv: list[str]) -> int:
    pot = template()
    bad = 0
    for lang in ("sl", "de"):
        path = I18N / f"{lang}.po"
        with path.open("rb") as fh:
            cat = read_po(fh, locale=lang)
        cat.update(pot, no_fuzzy_matching=True)
        missing = [m.id for m in cat if m.id and (m.fuzzy or not all(_forms(m.string)))]
        stale = list(cat.obsolete)
        for msgid in missing:
            print(f"{lang}: untranslated: {msgid!r}")
        for key in stale:
            print(f"{lang}: nobody uses: {key!r}")
        bad += len(missing) + len(stale)
        if "--check" not in argv:
            cat.obsolete.clear()
            with path.open("wb") as fh:
                write_po(fh, cat, width=100, sort_output=True, ignore_obsolete=True,
                         include_lineno=False)  # fmt: skip
    if "--check" not in argv:
        with (I18N / "messages.pot").open("wb") as fh:
            write_po(fh, pot, width=100, sort_output=True, include_lineno=False)
    return 1 if bad else 0


def _forms(string: object) -> tuple[str, ...]:
    return tuple(string) if isinstance(string, tuple | list) else (str(string or ""),)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
