"""Drives the MCP server `oncegen mcp` generated for oai-tictactoe.yaml with the official MCP
Python SDK's client (PyPI `mcp`, installed by .ci/mcp-python) over stdio, against the tiny
server of .ci/tictactoe/server.py after the newcomer's game (X on 1,1 2,2 3,3).

Usage: mcp_client.py SERVER_BINARY (the server's environment is this process's)

Checks: the server's name and tools; a write refused by a server started without
--allow-writes; with writes enabled, a mark placed on square 1,3, then the same call again
under the same key answered from the first outcome (the Tic Tac Toe server answers 400 to a
second mark on a square, so a resend would fail); a mark on a taken square refused with the
server's own words, as a final error; the square read back through a tool.
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def text_of(result):
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def expect(condition, what):
    if not condition:
        raise AssertionError(what)


async def session(binary, args, body):
    params = StdioServerParameters(command=binary, args=args, env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            init = await s.initialize()
            expect(init.server_info.name == "oai-tictactoe-mcp", f"server name: {init.server_info}")
            return await body(s)


async def main(binary):
    async def refused(s):
        names = {t.name for t in (await s.list_tools()).tools}
        expect(names == {"get_board", "get_square"}, f"read-only tools: {sorted(names)}")
        put = await s.call_tool("put_square", {"row": 1, "column": 3, "body": "O"})
        expect(put.is_error and "--allow-writes" in text_of(put), f"refused: {text_of(put)}")

    async def writes(s):
        names = {t.name for t in (await s.list_tools()).tools}
        expect("put_square" in names, f"tools with writes enabled: {sorted(names)}")
        mark = {"row": 1, "column": 3, "body": "O", "idempotency_key": "newcomer-mcp-1"}
        first = await s.call_tool("put_square", mark)
        expect(not first.is_error, f"first mark: {text_of(first)}")
        expect(first.structured_content["board"][0][2] == "O", f"board: {first.structured_content}")
        again = await s.call_tool("put_square", mark)
        expect(not again.is_error, f"the retried mark was sent again: {text_of(again)}")
        expect(again.meta and again.meta.get("replayed") is True, f"replayed: {again.meta}")
        # A square already taken: the server's 400, in text, is a final answer an agent can
        # read, not an unknown outcome inviting a retry.
        taken = await s.call_tool("put_square", {"row": 2, "column": 2, "body": "O"})
        taken_text = text_of(taken)
        expect(taken.is_error and '"api_error"' in taken_text, f"taken: {taken_text}")
        expect(
            "answered 400: HTTP 400 Bad Request: Square is not empty. Fix" in taken_text,
            f"taken: {taken_text}",
        )
        square = await s.call_tool("get_square", {"row": 1, "column": 3})
        expect(not square.is_error and '"O"' in text_of(square), f"square: {text_of(square)}")
        return text_of(square)

    await session(binary, [], refused)
    square = await session(binary, ["--allow-writes"], writes)
    print(json.dumps({"square_1_3": square, "retried_write": "replayed"}))


asyncio.run(main(sys.argv[1]))
