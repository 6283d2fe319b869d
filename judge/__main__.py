"""`python -m judge`: the same as the `judge` command."""

from .cli import main

raise SystemExit(main())
