"""The FastMCP server of `fastmcp_server.py` (same tools) over the legacy HTTP+SSE transport
(2024-11-05): `GET /sse` opens the stream, `POST /messages/?session_id=...` carries messages.
Recorded like the other rig servers (`Recorder`: every POST body's messages, as Python's
`json.loads` reads them), so a test can prove that a refused call never reached it.
Prints `LISTENING <port>`; see rig_common.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fastmcp_server import build  # noqa: E402
from rig_common import Recorder, serve  # noqa: E402


def main() -> None:
    serve(Recorder(build(stateless=False).sse_app()))


if __name__ == "__main__":
    main()
