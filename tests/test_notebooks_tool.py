import nbformat

from toolkit.exercises.notebook_file import WIDGET_VIEW, clean


def test_clean_keeps_only_allowed_metadata_and_html_fallbacks():
    nb = nbformat.v4.new_notebook(
        metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3"},
            "widgets": {"state": {}},
            "language_info": {"name": "python", "version": "3.12.1"},
            "toc": {},
        }
    )
    cell = nbformat.v4.new_code_cell("view", metadata={"tags": ["x"], "execution": {"t": "1"}, "scrolled": True})
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data", data={WIDGET_VIEW: {"model_id": "abc"}, "text/html": "<b>hi</b>", "text/plain": "hi"}
        ),
        nbformat.v4.new_output("display_data", data={WIDGET_VIEW: {"model_id": "only-widget"}}),
    ]
    nb.cells = [cell]
    cleaned = clean(nb)
    assert set(cleaned.metadata) == {"kernelspec", "language_info"}
    assert cleaned.metadata["language_info"] == {"name": "python"}  # no Python version to churn
    assert cleaned.cells[0].metadata == {"tags": ["x"]}
    assert [dict(o["data"]) for o in cleaned.cells[0].outputs] == [{"text/html": "<b>hi</b>", "text/plain": "hi"}]
    assert "id" not in cleaned.cells[0]


def test_split_stream_pieces_are_joined():
    import nbformat

    notebook = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("print(1); print(2)")
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="1\n"),
        nbformat.v4.new_output("stream", name="stdout", text="2\n"),
        nbformat.v4.new_output("stream", name="stderr", text="warn\n"),
        nbformat.v4.new_output("stream", name="stdout", text="3\n"),
    ]
    notebook.cells = [cell]
    clean(notebook)
    assert [(o["name"], o["text"]) for o in notebook.cells[0].outputs] == [
        ("stdout", "1\n2\n"),
        ("stderr", "warn\n"),
        ("stdout", "3\n"),
    ]
