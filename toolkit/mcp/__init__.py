"""MCP: servers as tool sources (client, provider, schema translation) and toolkit tools served
over MCP.
"""
