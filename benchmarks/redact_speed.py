"""Redaction speed: `sanitize` (what a failing tool's error text goes through) and `scrub` on
realistic error messages, µs per text.

    python benchmarks/redact_speed.py             # every message, sanitize and scrub
    python benchmarks/redact_speed.py --only http  # the messages whose label holds one of these words

The messages are what tools really raise, written as the libraries write them (not picked for
any step of the redaction): `requests`' HTTP errors with their URLs, urllib3's connection
errors, pydantic's `ValidationError` texts, `KeyError` / `AttributeError` / `TypeError` texts,
sqlite3 and psycopg errors, a `CalledProcessError` with its command line, Chinese messages, a
JSON dump of a failed response, and a 2 KB text holding a stack trace. A few hold a secret
(a labelled password, a token in a URL), most hold none, as in a loop.

Each text is timed alone (the best of several batches, so a neighbour's burst does not count),
and the mean over all of them is printed; the round trip of the tool loop (~18 µs on the
course's machine, `loop_overhead.py`) is the scale. Run it before and after a change to the
redaction, on the same machine, interleaved with nothing else if possible.

Leaves out: the environment's secret values (whatever the shell holds is used as it is) and
texts longer than the 20,000 characters `describe_exception` reads.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from collections.abc import Callable

from toolkit.tools.redact import sanitize, scrub

_TRACE = "\n".join(
    [
        "order sync failed after 3 attempts",
        "Traceback (most recent call last):",
        *(
            f'  File "/srv/shop/.venv/lib/python3.12/site-packages/shop/{m}.py", line {40 + i}, in {f}\n'
            f"    result = self.{f}(order_id, retries=retries, timeout=timeout)"
            for i, (m, f) in enumerate(
                [
                    ("sync", "run"),
                    ("sync", "push_batch"),
                    ("client", "post"),
                    ("client", "_request"),
                    ("transport", "send"),
                    ("transport", "_send_single"),
                    ("retry", "call"),
                    ("retry", "_attempt"),
                    ("pool", "urlopen"),
                    ("pool", "_make_request"),
                    ("conn", "request"),
                    ("conn", "getresponse"),
                ]
            )
        ),
        "urllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool(host='erp.example.com', port=443): "
        "Read timed out. (read timeout=30)",
        "",
        "During handling of the above exception, another exception occurred:",
        "",
        "requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='erp.example.com', port=443): "
        "Read timed out. (read timeout=30)",
    ]
)

MESSAGES: dict[str, str] = {
    "http 404": "404 Client Error: Not Found for url: https://api.example.com/orders/SN2026",
    "http 500 query": "500 Server Error: Internal Server Error for url: "
    "https://api.shop.example.com/v2/orders?status=open&page=3&per_page=50",
    "http 401 key": "401 Client Error: Unauthorized for url: https://maps.example.com/geo?key=AIzaSyA1b2C3d4&q=shanghai",
    "urllib3 refused": "HTTPSConnectionPool(host='api.shop.internal', port=443): Max retries exceeded with url: "
    "/v1/orders (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f>: "
    "Failed to establish a new connection: [Errno 111] Connection refused'))",
    "urllib3 dns": "HTTPConnectionPool(host='inventory', port=8080): Max retries exceeded with url: "
    '/stock/SN2026?warehouse=sh-01 (Caused by NameResolutionError("<urllib3.connection.HTTPConnection object '
    "at 0x7f3a2c1d0e50>: Failed to resolve 'inventory' ([Errno -2] Name or service not known)\"))",
    "requests timeout": "HTTPSConnectionPool(host='payments.example.com', port=443): Read timed out. (read timeout=10)",
    "httpx status": "Client error '429 Too Many Requests' for url 'https://api.example.com/v1/search?q=red+shoes'\n"
    "For more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/429",
    "pydantic 1": "1 validation error for Order\nquantity\n  Input should be greater than 0 "
    "[type=greater_than, input_value=-1, input_type=int]",
    "pydantic 3": "3 validation errors for Refund\norder_id\n  Field required [type=missing, "
    "input_value={'amount': '12.5x'}, input_type=dict]\n    For further information visit "
    "https://errors.pydantic.dev/2.9/v/missing\namount\n  Input should be a valid number, unable to parse "
    "string as a number [type=float_parsing, input_value='12.5x', input_type=str]\nreason\n  Field required "
    "[type=missing, input_value={'amount': '12.5x'}, input_type=dict]",
    "keyerror": "'SN202610200001'",
    "attributeerror": "'NoneType' object has no attribute 'items'",
    "typeerror": "lookup() got an unexpected keyword argument 'verbose'",
    "typeerror args": "unsupported operand type(s) for +: 'int' and 'str'",
    "valueerror": "invalid literal for int() with base 10: 'twelve'",
    "sqlite": "no such table: orders",
    "sqlite unique": "UNIQUE constraint failed: orders.order_id",
    "psycopg connect": 'connection to server at "db.internal" (10.0.3.7), port 5432 failed: FATAL:  '
    'password authentication failed for user "shop"',
    "psycopg dsn": "could not connect: postgresql://shop:Tr0ub4dor@db.internal:5432/orders?sslmode=require",
    "psycopg syntax": 'syntax error at or near "FROM"\nLINE 1: SELECT id, FROM orders WHERE status = $1\n'
    "                   ^",
    "subprocess": str(
        subprocess.CalledProcessError(2, ["mysqldump", "-u", "shop", "-pS3cr3t!", "--single-transaction", "orders"])
    ),
    "subprocess git": str(subprocess.CalledProcessError(128, ["git", "-C", "/srv/shop", "pull", "--ff-only"])),
    "chinese": "订单 SN202610200001 不存在，请检查订单号是否正确",
    "chinese http": "请求失败：状态码 503，服务暂时不可用（https://api.example.cn/订单/SN2026）",
    "json dump": json.dumps(
        {
            "error": {"code": "invalid_request", "message": "amount must be positive", "param": "amount"},
            "request_id": "req_8f3a2c1d0e5b4a39",
            "order": {"id": "SN202610200001", "items": [{"sku": "A-100", "qty": 2}, {"sku": "B-200", "qty": 1}]},
        }
    ),
    "env config": "missing setting: SHOP_API_TOKEN=abc123def456 is expired; set it in the environment",
    "file missing": "[Errno 2] No such file or directory: '/home/alice/shop/config.yaml'",
    "stack trace 2KB": _TRACE,
}


def best_us(fn: Callable[[str], str], text: str, batches: int = 7) -> float:
    """µs per call: the best of `batches` batches of about 20 ms each."""
    fn(text)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < 0.02:
        fn(text)
        n += 1
    best = float("inf")
    for _ in range(batches):
        start = time.perf_counter()
        for _ in range(n):
            fn(text)
        best = min(best, (time.perf_counter() - start) / n * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--only", action="append", default=[], help="messages whose label holds this word (repeatable)")
    args = parser.parse_args()
    if unknown := [word for word in args.only if not any(word in label for label in MESSAGES)]:
        parser.error(f"argument --only: no message's label contains {unknown[0]!r}; the labels: {', '.join(MESSAGES)}")
    chosen = {k: v for k, v in MESSAGES.items() if not args.only or any(w in k for w in args.only)}
    print(f"{'message':<18} {'chars':>6} {'sanitize':>9} {'scrub':>8}  (µs)")
    totals: dict[str, list[float]] = {"sanitize": [], "scrub": []}
    for label, text in chosen.items():
        a, b = best_us(sanitize, text), best_us(scrub, text)
        totals["sanitize"].append(a)
        totals["scrub"].append(b)
        print(f"{label:<18} {len(text):>6} {a:9.1f} {b:8.1f}")
    means = {k: statistics.fmean(v) for k, v in totals.items()}
    print(f"{'mean':<18} {'':>6} {means['sanitize']:9.1f} {means['scrub']:8.1f}  over {len(chosen)} messages")


if __name__ == "__main__":
    main()
