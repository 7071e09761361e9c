"""``python -m hackwright`` is the ``hackwright`` command."""

from .cli import main

if __name__ == "__main__":
    main()
