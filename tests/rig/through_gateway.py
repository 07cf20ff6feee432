"""Runs a client command through a gateway in front of the server URL it was given: for test
drivers that start their own server and hand its URL to the client as the last argument (the
conformance suite's client scenarios). Starts `GATEWAY_BIN serve` with `[auth]` off and that URL
as upstream `conformance`, waits until it listens, runs CMD... with the gateway's route in
place of the URL (where an argument is `{url}`, else last), and ends the gateway when the
command ends (with its exit status).

    GATEWAY_BIN=... python through_gateway.py CMD [ARG ...] URL
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time

*command, url = sys.argv[1:]
scratch = tempfile.mkdtemp(prefix="through-gateway-")
config = os.path.join(scratch, "gateway.toml")
with open(config, "w") as f:
    f.write(f'[listen]\naddr = "127.0.0.1:0"\n\n[[upstream]]\nname = "conformance"\nurl = "{url}"\n')
log = open(os.path.join(scratch, "gateway.err"), "w+")
gateway = subprocess.Popen([os.environ["GATEWAY_BIN"], "serve", "--config", config], stdin=subprocess.DEVNULL, stderr=log)
try:
    route = None
    for _ in range(600):  # until it listens (at most a minute)
        log.seek(0)
        found = re.search(r"MCP endpoints at (http://\S+)/mcp/<upstream>", log.read())
        if found:
            route = f"{found.group(1)}/mcp/conformance"
            break
        if gateway.poll() is not None:
            break
        time.sleep(0.1)
    if route is None:
        log.seek(0)
        sys.exit(f"the gateway did not start:\n{log.read()}")
    argv = [route if a == "{url}" else a for a in command]
    sys.exit(subprocess.call(argv if "{url}" in command else [*argv, route]))
finally:
    gateway.terminate()
    gateway.wait()
