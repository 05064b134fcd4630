"""Keep the translation catalogs in step with the source (``make catalogs``).

    python scripts/i18n_catalogs.py            # extract, update every .po, compile every .mo, write page JSON
    python scripts/i18n_catalogs.py --check    # exit 1 when a .po lacks a message or a .mo or JSON is stale

After an update, translate the new (empty) messages in each
``src/gammon/i18n/locale/<lang>/LC_MESSAGES/gammon.po`` and run it again to compile.
"""

from __future__ import annotations

import argparse
import sys

from gammon.i18n.catalogs import (
    TRANSLATED,
    compiled,
    extract,
    is_stale,
    missing,
    mo_path,
    placeholder_problems,
    read_catalog,
    update,
    write_template,
)
from gammon.i18n.page import stale_page_catalogs, write_page_catalogs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only check; change no file")
    args = parser.parse_args()
    template = extract()
    problems = []
    if not args.check:
        print(f"template: {write_template(template)} ({len(template)} messages)")
    for language in TRANSLATED:
        if not args.check:
            update(language, template)
        catalog = read_catalog(language)  # as written: what the test compiles and compares
        problems += [f"{language}: missing {m!r}" for m in missing(catalog, template)]
        problems += [f"{language}: {p}" for p in placeholder_problems(catalog)]
        data = compiled(catalog)
        path = mo_path(language)
        if args.check:
            if is_stale(language):
                problems.append(f"{language}: {path} is stale: run scripts/i18n_catalogs.py")
        else:
            path.write_bytes(data)
            print(f"{language}: {path}")
    if args.check:
        problems += [f"{language}: the page's JSON is stale: run scripts/i18n_catalogs.py"
                     for language in stale_page_catalogs()]
    else:
        for path in write_page_catalogs():
            print(f"page: {path}")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
