"""`python -m sctpsim ...` is the same as the `sctpsim` command."""

from sctpsim.cli import main

raise SystemExit(main())
