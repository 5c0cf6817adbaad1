"""tests/prewrite_asserts.py: pytest's rewritten bytecode, written once before the workers start."""

import marshal

import prewrite_asserts
import pytest
from _pytest.assertion import rewrite

TEST = "def test_x():\n    x = [1]\n    assert x == [1], 'one'\n"


def _pyc(path):
    return rewrite.get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL)


def _tree(tmp_path, count=1):
    for n in range(count):
        (tmp_path / f"test_{n}.py").write_text(TEST + f"N = {n}\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "conftest.py").write_text("import pytest\n")
    (tmp_path / "sub" / "helper.py").write_text("assert True\n")
    (tmp_path / "sub" / "test_broken.py").write_text("def test(:\n")
    return tmp_path


@pytest.mark.parametrize("count", [1, 9], ids=["in-process", "on-every-core"])
def test_what_pytest_rewrites_is_written_as_its_own_rewrite_with_this_run_s_config(tmp_path, pytestconfig, count):
    _tree(tmp_path, count)
    assert prewrite_asserts.main([str(tmp_path)]) == count + 1  # the tests and conftest; not helper, not broken
    for path in [*(tmp_path / f"test_{n}.py" for n in range(count)), tmp_path / "sub" / "conftest.py"]:
        read = rewrite._read_pyc(path, _pyc(path))  # what a worker finds, PYTHONDONTWRITEBYTECODE or not
        assert read is not None
        own = rewrite._rewrite_test(path, pytestconfig)[1]  # pytest's rewrite, with the run's own config
        assert read == own and read.co_filename == own.co_filename == str(path)
        assert marshal.loads(marshal.dumps(read)) == own
    assert not _pyc(tmp_path / "sub" / "helper.py").exists() and not _pyc(tmp_path / "sub" / "test_broken.py").exists()


def test_a_current_file_is_kept_and_a_changed_one_is_written_again(tmp_path):
    _tree(tmp_path)
    assert prewrite_asserts.main([str(tmp_path)]) == 2
    assert prewrite_asserts.main([str(tmp_path)]) == 0
    (tmp_path / "test_0.py").write_text(TEST.replace("[1]", "[2]"))
    assert prewrite_asserts.main([str(tmp_path)]) == 1
    assert rewrite._read_pyc(tmp_path / "test_0.py", _pyc(tmp_path / "test_0.py")) is not None
