"""`python -m sctpsim ...` is the same as the `sctpsim` command."""

import sys

try:
    from sctpsim.cli import main
except KeyboardInterrupt:  # Ctrl-C while the package is still importing
    sys.stderr.write("sctpsim: interrupted\n")
    raise SystemExit(130) from None

raise SystemExit(main())
