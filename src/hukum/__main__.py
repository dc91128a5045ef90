"""``python -m hukum``: the ``hukum`` command."""

from hukum.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
