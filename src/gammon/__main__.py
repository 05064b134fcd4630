"""``python -m gammon``: the same as the ``gammon`` command."""

from gammon.cli import main

if __name__ == "__main__":
    main()
