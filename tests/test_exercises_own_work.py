"""A build (or fix) exercise is to write the mechanism: a learner's function that hands the work to
the package's own implementation — the very function the check compares with, or one that runs it —
fails and says so, however it reached it (an import, a method, a higher-level class)."""

import pytest

from toolkit.exercises import check, get


def _delegating_usage(body):
    from toolkit import TokenUsage

    return TokenUsage.from_openai(body.get("usage"))


def _delegating_wait(attempt, retry_after):
    from toolkit.chat.client import RetryPolicy

    return RetryPolicy().wait(attempt, retry_after)


def _delegating_normalize(raw):
    from toolkit.course.validation import Rejected, normalize_order_id

    try:
        return normalize_order_id(raw)
    except Rejected:
        return None


def _delegating_returns_now(behaviors, any_error):
    from toolkit.loop.returns import should_return_immediately

    return should_return_immediately(behaviors, any_error)


def _counting_with_the_private_rule(body):  # the rule from_openai counts with, imported by its private name
    from toolkit import TokenUsage
    from toolkit.chat.messages import _count

    usage = body.get("usage") if isinstance(body.get("usage"), dict) else {}
    return TokenUsage(
        input_tokens=_count(usage.get("prompt_tokens")), output_tokens=_count(usage.get("completion_tokens"))
    )


def _returns_now_by_the_rule_in_words(behaviors, any_error):  # the same rule, as the truth-table view says it
    from toolkit.loop.returns import rule_applied

    return rule_applied(behaviors, any_error).endswith("→ return")


def _delegating_keep(messages, n):
    from toolkit.memory.windows import MessageWindow, evict

    return evict(messages, MessageWindow(n))


def _keep_through_a_memory(messages, n):  # the eviction reached through ChatMemory, not by name
    from toolkit.memory.windows import ChatMemory, MessageWindow

    memory = ChatMemory("w6", window=MessageWindow(n))
    for message in messages:
        memory.add(message)
    return memory.messages()


def _delegating_score(name, description, terms):
    from toolkit.search.keyword import KeywordSearch
    from toolkit.tools.reflect import ToolSpec

    search = KeywordSearch(max_results=1)
    found = search.search(search.index([ToolSpec(name=name, description=description)]), list(terms))
    return int(found[0].score) if found else 0


@pytest.mark.parametrize(
    ("exercise_id", "fn", "ran"),
    [
        ("w1.usage_build", _delegating_usage, "TokenUsage.from_openai"),
        ("w2.backoff", _delegating_wait, "RetryPolicy.wait"),
        ("w3.normalize", _delegating_normalize, "normalize_order_id"),
        ("w1.usage_build", _counting_with_the_private_rule, "toolkit.chat.messages._count"),
        ("w6.truth_table", _delegating_returns_now, "toolkit.loop.returns (the loop's return rule)"),
        ("w6.truth_table", _returns_now_by_the_rule_in_words, "toolkit.loop.returns (the loop's return rule)"),
        ("w6.window", _delegating_keep, "toolkit.memory.windows (the memory's eviction)"),
        ("w6.window", _keep_through_a_memory, "toolkit.memory.windows (the memory's eviction)"),
        ("w8.score", _delegating_score, "toolkit.search.keyword (the keyword search)"),
    ],
)
def test_a_function_that_runs_the_packages_own_implementation_fails(exercise_id, fn, ran):
    result = check(exercise_id, fn)
    assert (result.status, result.feedback) == (
        "failed",
        f"your code ran the package's own {ran}, which this check compares with: build it yourself "
        "(write the rule in your function), then the check compares yours with it",
    )


@pytest.mark.parametrize("exercise_id", ["w1.usage_build", "w2.backoff", "w3.normalize", "w6.truth_table", "w6.window"])
def test_the_reference_solutions_are_their_own_work(exercise_id):
    namespace: dict = {}
    exec(get(exercise_id).solution.replace(f'check("{exercise_id}", ', f'_ = check("{exercise_id}", '), namespace)
    assert namespace["_"].status == "passed"


def test_reading_the_defaults_of_the_packages_class_is_not_running_its_rule():
    from toolkit.chat.client import RetryPolicy

    policy = RetryPolicy()  # its constants, read before: the rule itself is the learner's

    def wait(attempt, retry_after):
        backoff = min(policy.max_backoff_s, policy.backoff_s * 2 ** (attempt - 1))
        return backoff if retry_after is None else min(policy.max_retry_after_s, max(backoff, retry_after))

    assert check("w2.backoff", wait).status == "passed"


def test_a_learner_who_swallows_every_exception_is_still_seen_running_the_reference():
    def returns_now(behaviors, any_error):
        try:
            return _delegating_returns_now(behaviors, any_error)
        except BaseException:
            return False

    assert check("w6.truth_table", returns_now).feedback.startswith("your code ran the package's own")


def test_cleaning_the_terms_with_the_packages_helper_is_not_running_its_score():
    """A score that runs `clean_terms` (a defensive step: the terms come cleaned) read "your code ran the
    package's own toolkit.search.keyword (the keyword search), which this check compares with": the
    cleaning is not the rule the check compares; the score written with it is the learner's."""

    def score(name, description, terms):
        from toolkit.search.keyword import clean_terms

        name, description = name.lower(), description.lower()
        return sum(2 * (t in name) + (t in description) for t in clean_terms(terms))

    assert check("w8.score", score).status == "passed"

    def borrowed(name, description, terms):
        from toolkit.search.keyword import clean_terms, score_text

        return score_text(name, description, clean_terms(terms))

    assert check("w8.score", borrowed).feedback.startswith(
        "your code ran the package's own toolkit.search.keyword (the keyword search)"
    )


def test_the_packages_own_function_given_as_the_answer_fails_even_when_it_cannot_be_called_so():
    from toolkit.chat.client import RetryPolicy

    # RetryPolicy.wait taken from the class wants self too: was "your code raised TypeError: RetryPolicy.wait()
    # missing 1 required positional argument: 'retry_after'", though the code was the package's
    result = check("w2.backoff", RetryPolicy.wait)
    assert (result.status, result.feedback) == (
        "failed",
        "your code ran the package's own RetryPolicy.wait, which this check compares with: build it yourself "
        "(write the rule in your function), then the check compares yours with it",
    )


def _in_a_thread(work):
    import threading

    out = []
    thread = threading.Thread(target=lambda: out.append(work()))
    thread.start()
    thread.join()
    return out[0]


def _wait_in_a_thread(attempt, retry_after):
    from toolkit.chat.client import RetryPolicy

    return _in_a_thread(lambda: RetryPolicy().wait(attempt, retry_after))


def _returns_now_in_a_thread(behaviors, any_error):
    from toolkit.loop.returns import should_return_immediately

    return _in_a_thread(lambda: should_return_immediately(behaviors, any_error))


@pytest.mark.parametrize(
    ("exercise_id", "fn", "ran"),
    [
        ("w2.backoff", _wait_in_a_thread, "RetryPolicy.wait"),
        ("w6.truth_table", _returns_now_in_a_thread, "toolkit.loop.returns (the loop's return rule)"),
    ],
)
def test_the_packages_own_implementation_run_in_a_thread_the_learners_code_starts_is_seen(exercise_id, fn, ran):
    result = check(exercise_id, fn)
    assert (result.status, result.feedback) == (
        "failed",
        f"your code ran the package's own {ran}, which this check compares with: build it yourself "
        "(write the rule in your function), then the check compares yours with it",
    )


@pytest.mark.parametrize("off", ["sys", "threading"])
def test_code_that_turns_the_watch_off_fails_saying_so(off):
    import sys
    import threading

    from toolkit.chat.client import RetryPolicy

    def wait(attempt, retry_after):
        if off == "sys":
            sys.setprofile(None)
            return RetryPolicy().wait(attempt, retry_after)
        threading.setprofile(None)
        return _wait_in_a_thread(attempt, retry_after)

    result = check("w2.backoff", wait)
    assert (result.status, result.feedback) == (
        "failed",
        "your code turned off the check's watch (sys.setprofile or threading.setprofile), so the check cannot see "
        "whether it ran the package's own RetryPolicy.wait, which it compares with: leave the profiler as it is "
        "and write the rule in your function",
    )
    assert sys.getprofile() is None and threading.getprofile() is None
