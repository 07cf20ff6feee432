"""Asks the reference client (tdqs==0.1.0) for one answer per case, with a single attempt, and
prints whether it accepted each answer under the tool-scoring or coherence contract. Used by
tests/it/score_diff.rs to compare the answer contract of both implementations.

usage: score_contract.py BASE_URL MODEL API_KEY tool|coherence KEY...
Each KEY becomes the first line of the user message (the loopback server scripts by it).
"""

import json
import os
import sys
from importlib.metadata import version

WANT = "0.1.0"


def main() -> int:
    if len(sys.argv) < 6:
        print(__doc__, file=sys.stderr)
        return 2
    base_url, model, api_key, kind, *keys = sys.argv[1:]
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        os.environ.pop(var, None)
    os.environ["NO_PROXY"] = "127.0.0.1,localhost"
    if version("tdqs") != WANT:
        print(f"the reference package is tdqs {version('tdqs')}, expected {WANT}", file=sys.stderr)
        return 3

    from tdqs.create_llm_client import create_llm_client
    from tdqs.score_server_coherence import CoherenceResponse
    from tdqs.score_tool_definition import ToolScoringResponse
    from tdqs.tdqs_llm_error import TdqsLlmError

    response_type = ToolScoringResponse if kind == "tool" else CoherenceResponse
    llm = create_llm_client(
        api_key=api_key, base_url=base_url, model=model, max_attempts=1, retry_delay_ms=0
    )
    results = []
    for key in keys:
        try:
            answer = llm.complete_json(
                system="contract probe", user=f"{key}\nRespond with JSON only.", response_type=response_type
            )
            results.append({"key": key, "ok": True, "value": answer.model_dump(mode="json")})
        except TdqsLlmError as error:
            results.append({"key": key, "ok": False, "error": str(error)})
    json.dump(results, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
