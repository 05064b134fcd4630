"""Match records for the analysis: read through the one registry of record formats.

The formats, the caps every reader shares (size, regular files only, nesting,
match length) and the reading itself are :mod:`gammon.formats.record_files`;
this module names them as the analysis knows them (``Record`` is what it walks).
"""

from __future__ import annotations

from gammon.formats.record_files import FORMATS, LoadedRecord, load_record, parse_record

#: What the analysis needs from a file: rules, names and the actions of each game.
Record = LoadedRecord
#: File endings the analysis reads, and what each holds.
RECORD_FORMATS = {suffix: fmt.title for suffix, fmt in FORMATS.items()}

__all__ = ["RECORD_FORMATS", "Record", "load_record", "parse_record"]
