"""A second MCP client, one graphmem did not write: the official Python SDK.

It connects to a running graphmem twice, over Streamable HTTP at /mcp with an
API key and over stdio by launching `graphmem mcp --stdio`, and each time
lists the tools, calls remember, then recall, and checks the memory comes
back. With --other-key it also checks that another tenant's key recalls
nothing of it. It prints one line per check and exits non-zero on the first
failure.

    python scripts/mcp_python_client.py --url http://127.0.0.1:8080 --key KEY \
        --other-key KEY2 --graphmem bin/graphmem

scripts/mcp-python.sh installs the SDK (pinned) into a git-ignored venv and
runs this; the Go test TestMCPPythonClient drives it against a live service.
"""

import argparse
import sys
import uuid

import anyio
import httpx2
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

TOOLS = {
    "remember", "recall", "get_context", "get_session_view", "list_preferences", "list_facts",
    "list_conflicts", "resolve_conflict", "add_fact", "correct_fact", "retract_fact", "request_condensation",
    "mark_memory",
}


def text_of(result) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


def check(ok: bool, what: str) -> None:
    if not ok:
        print(f"FAIL: {what}", file=sys.stderr)
        sys.exit(1)
    print(f"ok: {what}")


async def remember_and_recall(session: ClientSession, user: str, transport: str) -> None:
    await session.initialize()
    names = {t.name for t in (await session.list_tools()).tools}
    check(names == TOOLS, f"{transport}: lists the {len(TOOLS)} tools (got {sorted(names)})")
    pet = f"Pixel{uuid.uuid4().hex[:6]}"
    result = await session.call_tool("remember", {"user_id": user, "note": f"I adopted a greyhound called {pet}."})
    check(not result.is_error, f"{transport}: remember stores a note ({text_of(result)})")
    result = await session.call_tool("recall", {"user_id": user, "query": f"greyhound {pet}"})
    check(not result.is_error and pet in text_of(result), f"{transport}: recall gives the memory back")
    result = await session.call_tool("recall", {"user_id": user})  # no query: the schema refuses it
    check(result.is_error, f"{transport}: a call the schema refuses is a tool error, not a crash")


def http_client(key: str) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=httpx2.Timeout(30, read=120))


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", required=True, help="graphmem's base URL")
    ap.add_argument("--key", required=True, help="an API key")
    ap.add_argument("--other-key", help="a key of another tenant, which must not see the memory")
    ap.add_argument("--graphmem", required=True, help="the graphmem binary, for the stdio transport")
    args = ap.parse_args()
    user = f"py-{uuid.uuid4().hex[:8]}"

    async with http_client(args.key) as http:
        async with streamable_http_client(args.url + "/mcp", http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await remember_and_recall(session, user, "streamable-http")

    if args.other_key:
        async with http_client(args.other_key) as http:
            async with streamable_http_client(args.url + "/mcp", http_client=http) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    result = await session.call_tool("recall", {"user_id": user, "query": "greyhound"})
                    check("No memories matched" in text_of(result), "another tenant's key recalls nothing")

    server = StdioServerParameters(command=args.graphmem, args=["mcp", "--stdio"],
                                   env={"GRAPHMEM_URL": args.url, "GRAPHMEM_API_KEY": args.key})
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await remember_and_recall(session, user, "stdio")


if __name__ == "__main__":
    anyio.run(main)
