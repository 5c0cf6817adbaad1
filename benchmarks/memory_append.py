"""Appending to a stored conversation: time per append at 10, 100 and 1,000 messages.

Issue 14 ("Memory store") and issue 16 item 5: appending is O(1), so one more message costs
the same whether the conversation holds 10 or 1,000. The workload: a `SqliteStore` in a
temporary directory, one memory id pre-filled with n messages (user / assistant with a tool
call / tool result / answer, ~150 characters each), then `ChatMemory.add` of one message at a
time, each its own transaction. For contrast the same run times the reference the store
replaced: read the whole conversation and rewrite it (`get` + `set`), which is O(n).

The same per-append timing also runs on an `InMemoryStore`, appending user messages and
appending system messages (a new one replaces the stored one and goes first).

Windowed: the same conversations in a `MessageWindow` or a `TokenWindow` exactly as large as
they are, so every append evicts the oldest message (the steady state of a windowed memory),
on both stores, appending a question and an answer in turn.

Workloads the checker of issue 16 found growing (each append timed alone, median of rounds):
a tool result answering the call made at the conversation's start (`SqliteStore` read back to
the call on every append), a system message appended and the conversation read (timed together:
`SqliteStore` read every row again), a system message added through a full window (both
stores read, evicted and rewrote the whole conversation), a full in-memory window read after
each append (the append freed the list the last read had given out), and a new round's call or
result in a window full of one turn's rounds (an agent's long turn: the turn's oldest round leaves
from between its question and the rest, and both stores read, evicted and rewrote the window).

A large result (`--large` runs only these rows): a round of 20 calls whose first result holds 10 KB, 1 MB
or 10 MB, in a `MessageWindow` / `TokenWindow` the round overflows (`evict` keeps the current turn whole),
each further result timed alone: what one append costs must not grow with the result already stored
(it re-read, re-encoded and rewrote the whole turn: ~1 s an append beside 10 MB on `SqliteStore`).

Run on demand (never a test): `PYTHONPATH=. python benchmarks/memory_append.py`
Target: per-append time at 1,000 messages ≤ 1.5 × the time at 10 (met / not met).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from toolkit.chat.messages import AssistantMessage, Message, SystemMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import (
    ChatMemory,
    ChatMemoryStore,
    InMemoryStore,
    MessageWindow,
    TokenWindow,
    Window,
    message_tokens,
)

SIZES = (10, 100, 1_000)
APPENDS = 60
TARGET = 1.5


def conversation(n: int) -> list[Message]:
    out: list[Message] = []
    k = 0
    while len(out) < n:
        call = ToolCall(id=f"c{k}", name="query_order", arguments=f'{{"orderId": "SN2026102000{k % 100:02d}"}}')
        out += [
            UserMessage(content=f"帮我查一下订单 SN2026102000{k % 100:02d} 现在到哪了？我昨天就该收到了。"),
            AssistantMessage(tool_calls=(call,)),
            ToolResultMessage(tool_call_id=call.id, tool_name="query_order", content='{"status": "已发货"}' * 4),
            AssistantMessage(content="您的订单已经发货，预计明天送达，物流单号 SF1234567890。" * 2),
        ]
        k += 1
    return out[:n]


def per_append_us(store: ChatMemoryStore, memory_id: str, n: int, *, rewrite: bool, system: bool = False) -> float:
    store.set(memory_id, conversation(n))
    memory = ChatMemory(memory_id, store=store)
    samples = []
    for k in range(APPENDS):
        message: Message = (
            SystemMessage(content=f"你是客服助手（第 {k} 版）。")
            if system
            else UserMessage(content=f"还有一个问题 {k}：退货运费谁出？")
        )
        start = time.perf_counter()
        if rewrite:
            store.set(memory_id, [*store.get(memory_id), message])
        else:
            memory.add(message)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


def windowed_append_us(store: ChatMemoryStore, memory_id: str, n: int, window_kind: str) -> float:
    """Per append in a full window of `n` messages: each append evicts from the front."""
    history = conversation(n)
    window: Window = MessageWindow(n) if window_kind == "messages" else TokenWindow(sum(map(message_tokens, history)))
    memory = ChatMemory(memory_id, store=store, window=window)
    memory.set(history)
    memory.add(UserMessage(content="先热身一次。"))  # the first windowed add learns the conversation's weight
    samples = []
    for k in range(APPENDS):
        message: Message = (
            UserMessage(content=f"还有一个问题 {k}：退货运费谁出？")
            if k % 2 == 0
            else AssistantMessage(content=f"答复 {k}")
        )
        start = time.perf_counter()
        memory.add(message)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


def windowed() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for store_label in ("SqliteStore", "InMemoryStore"):
            for window_kind, label in (("messages", "MessageWindow"), ("tokens", "TokenWindow")):
                rounds = []
                for r in range(5):  # median of 5: an fsync or a neighbour can stall a round
                    store: ChatMemoryStore = (
                        SqliteStore(Path(tmp) / f"w-{window_kind}-{r}.db")
                        if store_label == "SqliteStore"
                        else InMemoryStore()
                    )
                    rounds.append({n: windowed_append_us(store, f"w{n}", n, window_kind) for n in SIZES})
                print_flat(f"{store_label}, full {label}", rounds)


def long_turn(n: int) -> list[Message]:
    """One question answered over rounds of a call and its result: `n` messages or one more."""
    out: list[Message] = [UserMessage(content="把我上个月的订单都查一遍，看看哪些还没到。")]
    k = 0
    while len(out) < n:
        call = ToolCall(id=f"t{k}", name="query_order", arguments=f'{{"orderId": "SN2026102000{k % 100:02d}"}}')
        out += [
            AssistantMessage(tool_calls=(call,)),
            ToolResultMessage(tool_call_id=call.id, tool_name="query_order", content='{"status": "已发货"}' * 4),
        ]
        k += 1
    return out


def long_turn_append_us(store: ChatMemoryStore, n: int) -> float:
    """Per append of a new round's call or result, in a `MessageWindow(n)` full of one turn's rounds
    (`evict` drops the turn's oldest round from between its question and the rest)."""
    memory = ChatMemory("turn", store=store, window=MessageWindow(max(n, 4)))
    memory.set(long_turn(n - 1))  # whole rounds: the first append fills the window
    memory.messages()
    samples = []
    for k in range(APPENDS):
        call = ToolCall(id=f"n{k // 2}", name="query_order", arguments='{"orderId": "SN202610200001"}')
        message: Message = (
            AssistantMessage(tool_calls=(call,))
            if k % 2 == 0
            else ToolResultMessage(tool_call_id=call.id, tool_name="query_order", content='{"status": "已签收"}')
        )
        start = time.perf_counter()
        memory.add(message)
        samples.append(time.perf_counter() - start)
        memory.messages()  # as the loop reads memory before each request (not timed)
    return statistics.median(samples) * 1e6


def workload_append_us(store: ChatMemoryStore, n: int, workload: str) -> float:
    """Per append of one of the workloads in the module docstring, on a conversation of `n`."""
    if workload == "long turn":
        return long_turn_append_us(store, n)
    history = conversation(n)
    window: Window | None = MessageWindow(max(n, 4)) if workload in ("windowed system", "windowed read") else None
    memory = ChatMemory("x", store=store, window=window)
    memory.set(history)
    memory.add(UserMessage(content="先热身一次。"))
    memory.messages()
    samples = []
    for k in range(APPENDS):
        message: Message = (
            ToolResultMessage(tool_call_id="c0", tool_name="query_order", content=f"又查了一次 {k}")
            if workload == "early call"
            else SystemMessage(content=f"你是客服助手（第 {k} 版）。")
            if workload in ("system, read", "windowed system")
            else UserMessage(content=f"还有一个问题 {k}：退货运费谁出？")
        )
        start = time.perf_counter()
        memory.add(message)
        if workload == "system, read":
            memory.messages()  # timed with the append: the read is what grew
        samples.append(time.perf_counter() - start)
        if workload == "windowed read":
            memory.messages()  # a loop that reads after each append (an in-memory read is a list of n: not timed)
    return statistics.median(samples) * 1e6


def workloads() -> None:
    rows = (
        ("SqliteStore", "early call", "tool result for the call made first"),
        ("SqliteStore", "system, read", "system message and a read"),
        ("SqliteStore", "windowed system", "full MessageWindow, system message"),
        ("InMemoryStore", "windowed system", "full MessageWindow, system message"),
        ("InMemoryStore", "windowed read", "full MessageWindow, read after each"),
        ("SqliteStore", "long turn", "MessageWindow full of one turn's rounds, a new round"),
        ("InMemoryStore", "long turn", "MessageWindow full of one turn's rounds, a new round"),
    )
    with tempfile.TemporaryDirectory() as tmp:
        for store_label, workload, label in rows:
            rounds = []
            for r in range(5):
                store: ChatMemoryStore = (
                    SqliteStore(Path(tmp) / f"x-{workload}-{r}.db") if store_label == "SqliteStore" else InMemoryStore()
                )
                rounds.append({n: workload_append_us(store, n, workload) for n in SIZES})
            print_flat(f"{store_label}, {label}", rounds)


def print_flat(label: str, rounds: list[dict[int, float]]) -> None:
    """One row: the median µs per append at each size over `rounds`, and the largest / smallest."""
    us = {n: statistics.median(r[n] for r in rounds) for n in SIZES}
    ratio = us[SIZES[-1]] / us[SIZES[0]]
    print(
        f"{label}: " + " / ".join(f"{us[n]:,.1f}" for n in SIZES) + f" µs at {', '.join(map(str, SIZES))}; "
        f"{SIZES[-1]:,} / {SIZES[0]}: {ratio:.2f} (target ≤ {TARGET}) — {'met' if ratio <= TARGET else 'NOT MET'}"
    )


LARGE = (10_000, 1_000_000, 10_000_000)
"""Characters of the round's first result in the large-result rows."""


def large_result_us(store: ChatMemoryStore, size: int, window_kind: str) -> float:
    """Per further result of a round whose first result holds `size` characters, in a window it overflows."""
    calls = tuple(ToolCall(id=f"c{i}", name="query_order", arguments="{}") for i in range(APPENDS // 3 + 1))
    window: Window = MessageWindow(4) if window_kind == "messages" else TokenWindow(200)
    memory = ChatMemory("big", store=store, window=window)
    memory.set([UserMessage(content="把这些订单都查一遍。"), AssistantMessage(tool_calls=calls)])
    memory.messages()  # as the loop reads memory before each request
    memory.add(ToolResultMessage(tool_call_id=calls[0].id, tool_name="query_order", content="运" * size))
    samples = []
    for call in calls[1:]:
        start = time.perf_counter()
        memory.add(ToolResultMessage(tool_call_id=call.id, tool_name="query_order", content='{"status": "已发货"}'))
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


def large_results() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for store_label in ("SqliteStore", "InMemoryStore"):
            for window_kind, label in (("messages", "MessageWindow"), ("tokens", "TokenWindow")):
                us: dict[int, float] = {}
                for size in LARGE:
                    store: ChatMemoryStore = (
                        SqliteStore(Path(tmp) / f"big-{window_kind}-{size}.db")
                        if store_label == "SqliteStore"
                        else InMemoryStore()
                    )
                    us[size] = statistics.median(large_result_us(store, size, window_kind) for _ in range(3))
                ratio = us[LARGE[-1]] / us[LARGE[0]]
                print(
                    f"{store_label}, {label} overflowed by a round, its first result large: "
                    + " / ".join(f"{us[n]:,.1f}" for n in LARGE)
                    + f" µs a further result beside {', '.join(f'{n:,}' for n in LARGE)} characters; "
                    f"{ratio:.2f} (target ≤ {TARGET}) — {'met' if ratio <= TARGET else 'NOT MET'}"
                )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp) / "bench.db")
        appended = {n: per_append_us(store, f"append-{n}", n, rewrite=False) for n in SIZES}
        rewritten = {n: per_append_us(store, f"rewrite-{n}", n, rewrite=True) for n in SIZES}
        store.close()
    print(f"{'messages':>9}  {'append (µs)':>12}  {'read+rewrite (µs)':>18}")
    for n in SIZES:
        print(f"{n:>9,}  {appended[n]:>12,.0f}  {rewritten[n]:>18,.0f}")
    ratio = appended[SIZES[-1]] / appended[SIZES[0]]
    print(
        f"append at {SIZES[-1]:,} / at {SIZES[0]}: {ratio:.2f} (target ≤ {TARGET}) — {'met' if ratio <= TARGET else 'NOT MET'}"
    )
    print(
        f"read+rewrite at {SIZES[-1]:,} / at {SIZES[0]}: {rewritten[SIZES[-1]] / rewritten[SIZES[0]]:.2f} (the O(n) reference)"
    )
    for label, system in (("user message", False), ("system message", True)):
        # median of 3 rounds: an in-memory append takes microseconds, so one burst of a neighbour shows
        rounds = [
            {n: per_append_us(InMemoryStore(), "m", n, rewrite=False, system=system) for n in SIZES} for _ in range(3)
        ]
        print_flat(f"InMemoryStore, {label}", rounds)
    windowed()
    workloads()
    large_results()


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--large", action="store_true", help="only the large-result rows")
    if parser.parse_args().large:
        large_results()
    else:
        main()
