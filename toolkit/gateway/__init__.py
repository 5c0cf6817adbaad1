"""The fake keyword gateway: a pure core (validate, decide, wire) with rules as data, shown
in-process (an httpx transport) or over real HTTP (starlette + uvicorn).
"""
