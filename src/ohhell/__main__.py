"""``python -m ohhell``: the ``ohhell`` command."""

from ohhell.cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
