"""Runs a command and makes sure it dies with the test that started it.

    python reaper.py CMD ARGS...

The command runs in its own process group with this process's stdin. When stdin reaches EOF
(the test closed it, or the test process died and the kernel closed it), or when this process
gets SIGTERM/SIGINT, the whole group gets SIGTERM, then SIGKILL a second later. When the command
exits by itself, this process exits with its status. Used by the Rust integration tests for
processes that do not watch their stdin themselves (server-everything, the gateway binary).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

child = subprocess.Popen(sys.argv[1:], start_new_session=True)
done = threading.Event()


def reap(*_: object) -> None:
    if done.is_set():
        return
    done.set()
    for sig, grace in ((signal.SIGTERM, 1.0), (signal.SIGKILL, 0.0)):
        try:
            os.killpg(child.pid, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.02)
        if child.poll() is not None:
            break
    os._exit(0)


def watch_stdin() -> None:
    try:
        while os.read(0, 65536):  # raw reads: no buffer lock held at interpreter shutdown
            pass
    except (OSError, ValueError):
        pass
    reap()


signal.signal(signal.SIGTERM, reap)
signal.signal(signal.SIGINT, reap)
threading.Thread(target=watch_stdin, daemon=True).start()
code = child.wait()
if not done.is_set():
    sys.exit(code if code >= 0 else 128 - code)
while True:  # the reaper thread is finishing up and will exit the process
    time.sleep(1)
