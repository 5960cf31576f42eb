"""Drives customer-cloud-mcp with the official MCP Python SDK's client (PyPI `mcp`).

Usage: client.py stdio SERVER_BINARY [FLAGS...]
       client.py http URL

The server's environment (sandbox base URL and credential, state directory) is this process's.
Over HTTP the token is MCP_TEST_TOKEN. Prints one JSON line of what it saw; any failed
expectation raises (non-zero exit), and the Rust test checks the sandbox's ledger.
"""

import asyncio
import json
import os
import sys

import httpx2
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def text_of(result):
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def expect(condition, what):
    if not condition:
        raise AssertionError(what)


async def exercise(session, label):
    init = await session.initialize()
    expect(init.server_info.name == "customer-cloud-mcp", f"server name: {init.server_info}")
    listed = await session.list_tools()
    names = {t.name for t in listed.tools}
    expect("get_version" in names and "dns_template_create" in names, f"tools: {sorted(names)}")
    expect("webhook_delete" not in names, "a destructive tool is not offered when not enabled")
    schemas = json.dumps([t.model_dump(by_alias=True, mode="json") for t in listed.tools])
    expect('"$ref"' not in schemas, "no $ref in any tool schema")
    tools_bytes = len(json.dumps({"tools": json.loads(schemas)}))

    # Reads.
    version = await session.call_tool("get_version", {})
    expect(not version.is_error, text_of(version))
    zones = await session.call_tool("list_dns_zones", {})
    expect(not zones.is_error, text_of(zones))
    products = await session.call_tool("get_products", {"product_code": "vps", "limit": 1})
    expect(not products.is_error, text_of(products))
    plan = products.structured_content["items"][0]

    # A write, repeated after its outcome arrived (a new write), then called again under the
    # key the first returned (that write again, replayed: nothing new).
    template = {"body": {"name": f"py-{label}", "zone_file": "@ 3600 IN A 192.0.2.1\n"}}
    first = await session.call_tool("dns_template_create", template)
    expect(not first.is_error, text_of(first))
    key = first.meta["idempotency_key"]
    expect(first.meta["replayed"] is False, f"first: {first.meta}")
    second = await session.call_tool("dns_template_create", template)
    expect(not second.is_error, text_of(second))
    expect(second.meta["idempotency_key"] != key, f"a deliberate repeat is a new write: {second.meta}")
    expect(second.meta["replayed"] is False, f"second: {second.meta}")
    third = await session.call_tool("dns_template_create", {**template, "idempotency_key": key})
    expect(third.structured_content == first.structured_content, "the key answers the first outcome")
    expect(third.meta["replayed"] is True, f"replayed: {third.meta}")

    # A purchase without a ceiling is refused as a tool error.
    deploy = {
        "region": plan["region"], "productCode": "vps", "variantCode": plan["variant_code"],
        "body": {"hostname": "py.example.net"},
    }
    refused = await session.call_tool("product_variant_deploy", deploy)
    expect(refused.is_error and "spending ceiling" in text_of(refused), text_of(refused))

    # A destructive call, not enabled, is refused as a tool error.
    destroy = await session.call_tool("webhook_delete", {"id": "00000000-0000-0000-0000-000000000000"})
    expect(destroy.is_error and "--allow-destructive" in text_of(destroy), text_of(destroy))
    return {"transport": label, "tools": len(listed.tools), "tools_list_bytes": tools_bytes, "key": key}


async def answering(accept):
    """An elicitation callback that records the question and confirms (or declines) it."""
    asked = []

    async def callback(context, params):
        asked.append(params.message)
        if accept:
            return types.ElicitResult(action="accept", content={"confirm": True})
        return types.ElicitResult(action="decline")

    return asked, callback


async def confirmation(read_write_factory):
    """A purchase asks the user first: declined, nothing is sent; accepted, the call goes out."""
    unknown_invoice = {"id": "00000000-0000-0000-0000-000000000000"}
    seen = {}
    for accept in (False, True):
        asked, callback = await answering(accept)
        async with read_write_factory() as (read, write):
            async with ClientSession(read, write, elicitation_callback=callback) as session:
                await session.initialize()
                paid = await session.call_tool("pay_invoice", unknown_invoice)
        expect(len(asked) == 1 and "pay_invoice" in asked[0], f"asked: {asked}")
        # The question names the resource and what it may charge.
        expect(asked[0].startswith(f"Pay an invoice from account balance (id {unknown_invoice['id']}) "
                                   "for an amount that cannot be read before paying?"), f"asked: {asked}")
        expect(paid.is_error, text_of(paid))
        if accept:
            # Sent: the API answers that the invoice does not exist.
            expect("api_error" in text_of(paid), text_of(paid))
        else:
            expect("did not confirm" in text_of(paid), text_of(paid))
        seen["accepted" if accept else "declined"] = True
    return seen


async def main():
    mode = sys.argv[1]
    if mode == "stdio":
        params = StdioServerParameters(command=sys.argv[2], args=sys.argv[3:], env=dict(os.environ))
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                seen = await exercise(session, "stdio")
        seen["confirmation"] = await confirmation(lambda: stdio_client(params))
    else:
        url = sys.argv[2]
        token = os.environ["MCP_TEST_TOKEN"]
        # Without the server's token, and with another, the server answers 401.
        async with httpx2.AsyncClient() as plain:
            ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
            for headers in ({}, {"Authorization": "Bearer not-the-token-not-the-token"}):
                answer = await plain.post(url, json=ping, headers=headers)
                expect(answer.status_code == 401, f"{headers}: {answer.status_code}")
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
        async with http:
            async with streamable_http_client(url, http_client=http) as (read, write):
                async with ClientSession(read, write) as session:
                    seen = await exercise(session, "http")
    print(json.dumps(seen))


asyncio.run(main())
