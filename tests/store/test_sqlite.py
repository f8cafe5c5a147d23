import pytest

from docqa.store.sqlite import SQLiteStore
from tests.store.battery import ServiceStateBattery, StoreBattery, two_documents  # noqa: F401  (fixture)


@pytest.fixture
def store(tmp_path):
    s = SQLiteStore(tmp_path / "index.sqlite")
    yield s
    s.close()


@pytest.fixture
def second_store(store, tmp_path):
    """Another connection to the same index, as another process would open it."""
    s = SQLiteStore(tmp_path / "index.sqlite")
    yield s
    s.close()


class TestSQLiteStore(StoreBattery, ServiceStateBattery):
    def test_reopening_keeps_everything(self, tmp_path):
        from tests.store.battery import make_document
        from docqa.types import DocType

        path = tmp_path / "again.sqlite"
        first = SQLiteStore(path)
        first.add_document(*make_document("eeee5555", "Z plc", 2019, DocType.ANNUAL, ["Revenue  1,000  900"]))
        first.bind_embedder("model-a")
        first.close()
        second = SQLiteStore(path)
        assert [d.id for d in second.documents()] == ["eeee5555"]
        assert second.embedder_identity() == "model-a"
        assert second.lexical_search(["1000"], [], __import__("docqa.types").types.SearchFilters(), 5)
        second.close()
