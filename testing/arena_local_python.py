"""`shogiarena` with its SSH workers on the Python running this script.

shogiarena 1.3.2 pins the Python its SSH workers run on (3.12.10) and leaves
it to uv to find or download it there. Where no worker can have that version
(no CPython 3.12.10 on the machine, no internet to fetch one), this runs
`shogiarena` with the worker bundle made for this interpreter's version
instead, which each worker must then have. Everything else is shogiarena's
own; the arguments are its command line. testing/ssh-worker.sh uses it when
`uv python find 3.12.10` finds nothing.
"""

import platform
import sys

from shogiarena._core.contexts.game_session.application import (
    remote_worker_bundle,
    worker_bundle_builder,
)
from shogiarena._core.platform.engine_provisioning import remote_artifact_store
from shogiarena.cli import main

HERE = platform.python_version()
_build = worker_bundle_builder.build_worker_bundle


def build_for_this_python(**kwargs):
    kwargs.setdefault("python_version", HERE)
    return _build(**kwargs)


remote_worker_bundle.build_worker_bundle = build_for_this_python
remote_worker_bundle.prepare_remote_worker_bundle.__kwdefaults__["builder"] = build_for_this_python
remote_artifact_store.WORKER_PYTHON_VERSION = HERE

if __name__ == "__main__":
    sys.exit(main())
