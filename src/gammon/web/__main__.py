"""``python -m gammon.web``: run the server (see :func:`gammon.web.server.main`)."""

from gammon.web.server import main

main()
