"""Week 9's checks with other learners' answers: a count of tools that includes a server which never started is told
why it is too many."""

from toolkit.exercises import check


def test_a_count_of_tools_with_the_dead_servers_in_it_is_told_that_server_lists_none():
    """Before: 6 (the dead server counted as if it offered three tools too) read only "provide() did not list 6
    tools"."""
    assert check("w9.dead_server", 6).feedback == (
        "provide() did not list 6 tools: that is more than it lists — the server that exited at start-up never "
        "answered, so it lists no tools"
    )
