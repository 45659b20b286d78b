"""``pinref source``: pinref's statements beside the installed Pinocchio's header lines.

    pinref source aba                 aba.py beside aba.hxx, stop by stop, statement by statement
    pinref source rnea --json         the same as JSON (file, line, text of both sides)
    pinref source crba --headers DIR  another Pinocchio's include/pinocchio directory

The headers come from the installed pin wheel, pin 3.8.0 or 4.x (pip install 'pinref[pin]' or
'pinref[pin4]'); the listing names the version whose headers it used. The line map is
pinref/sourcemap/linemap.json (anchor texts, per version where they differ). Exit codes: 0
every anchor found once, 1 some anchor not found in these sources (the listing says which), 2 bad
usage or no headers installed (the message names the files looked for).
"""

import argparse
import json

from ..textwidth import add_wide_argument, fit_lines, output_width


def add(subparsers):
    p = subparsers.add_parser("source", help="print pinref's steps beside Pinocchio's header lines",
                              description=__doc__.replace("``", ""),
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("algorithm", choices=("aba", "rnea", "crba"))
    p.add_argument("--headers", metavar="DIR",
                   help="Pinocchio's include/pinocchio directory (default: the installed pin's)")
    p.add_argument("--json", action="store_true", help="print the listing as JSON")
    add_wide_argument(p)
    p.set_defaults(run=run)


def run(args):
    from ..cli import UsageError
    from . import HeadersNotFoundError, find_headers, load_map, open_headers, render, resolve
    from . import to_dict

    if args.headers is None:
        headers = find_headers()
    else:
        try:
            headers = open_headers(args.headers)
        except HeadersNotFoundError as err:
            raise UsageError(f"--headers {args.headers}: {err}; give the include/pinocchio "
                             "directory of a Pinocchio install") from None
    blocks = resolve(args.algorithm, headers)
    ok = all(b.ok for b in blocks)
    version = headers.version
    if args.json:
        print(json.dumps(to_dict(blocks, args.algorithm, version, headers.include), indent=1))
    else:
        print(fit_lines(render(blocks, args.algorithm, version, headers.include),
                        output_width(args.wide)))
        tested = load_map()["versions"]
        if version not in tested:
            print(f"\nnote: the map is tested with Pinocchio {', '.join(tested)}; these headers "
                  f"are {version or 'of an unknown version'}")
        if not ok:
            print("\nsome anchors were not found exactly once (NOT FOUND above): the map, "
                  "pinref/sourcemap/linemap.json, no longer fits these sources")
    return 0 if ok else 1
