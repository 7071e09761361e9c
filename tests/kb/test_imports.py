"""User imports: MiniHack's NetHack-wiki JSON, a MediaWiki XML dump, a directory of spoiler files."""

from __future__ import annotations

import gzip

import pytest

from hackwright.kb.imports import detect_format, import_documents, wikitext_to_text
from hackwright.kb.search import KnowledgeBase

from .conftest import FIXTURES


@pytest.fixture
def empty_kb(tmp_path):
    """A knowledge base without the built-in corpus: imports alone, quick to make."""
    kb = KnowledgeBase.open(tmp_path / "kb.sqlite", build=False)
    yield kb
    kb.close()


def test_the_wiki_json_sample_imports_with_titles_and_sections(empty_kb):
    path = FIXTURES / "nhwiki_sample.json"
    assert detect_format(path) == "wiki-json"
    report = empty_kb.import_path(path)
    assert report.documents == 2  # the redirect page is not a document
    hits = empty_kb.search("how do I get the prize at the top of sokoban", k=2)
    assert hits[0].doc_id == "wiki:sokoban" and hits[0].source == "wiki"
    assert "Reward: The top level holds a prize" in hits[0].text
    assert empty_kb.search("lady of the lake fountain", k=1)[0].title == "Excalibur"


def test_minihacks_processed_wiki_form_imports_too(empty_kb, tmp_path):
    processed = tmp_path / "processed.json"
    processed.write_text(
        '{"_global_counts": {"boulder": 3}, "boulder": {"title": "boulder", "length": 40, '
        '"categories": ["Objects"], "raw_text": "A boulder blocks corridors; force bolt breaks it.", '
        '"text": "A boulder blocks corridors force bolt breaks it.", "anchors": [], "unique_anchors": {}}}'
    )
    empty_kb.import_path(processed, "wiki-json")
    assert empty_kb.search("what breaks a boulder", k=1)[0].doc_id == "wiki:boulder"


def test_a_mediawiki_dump_keeps_articles_and_drops_talk_pages_redirects_and_markup(empty_kb):
    path = FIXTURES / "mediawiki_sample.xml"
    assert detect_format(path) == "mediawiki-xml"
    [doc] = import_documents(path)
    assert doc.doc_id == "wiki:unicorn"
    assert [s.heading for s in doc.sections] == ["", "Gems", "Horn"]
    text = doc.text
    assert "A unicorn is a horse-like monster" in text
    assert "{{" not in text and "[[" not in text and "<ref>" not in text and "See the source" not in text
    empty_kb.import_path(path)
    assert empty_kb.search("throw a gem to a unicorn for luck", k=1)[0].doc_id == "wiki:unicorn"


def test_wikitext_links_templates_and_emphasis_flatten_to_plain_text():
    assert wikitext_to_text("{{a|{{b}}}}See [[Luck|luck]] and '''[[Elbereth]]'''.") == "See luck and Elbereth."


def test_a_spoiler_directory_imports_text_gzip_and_html_files(empty_kb, tmp_path):
    spoilers = tmp_path / "nethack-spoilers"
    (spoilers / "gazetteer").mkdir(parents=True)
    (spoilers / "food-343.txt").write_text(
        "Food and hunger in NetHack\n\nMeat\n====\nA tripe ration gives 200 nutrition.\n\n"
        "Vegetables\n==========\nA carrot cures blindness.\n")
    (spoilers / "wand-343.txt.gz").write_bytes(gzip.compress(b"Wands\n\nEngrave-testing a wand identifies many.\n"))
    (spoilers / "gazetteer" / "oracle.html").write_text(
        "<html><body><h2>The Oracle</h2><p>Centaurs and fountains surround Delphi.</p></body></html>")
    report = empty_kb.import_path(spoilers)
    assert report.documents == 3
    hit = empty_kb.search("does a carrot cure blindness", k=1)[0]
    assert hit.doc_id == "spoiler:food-343.txt" and hit.source == "spoilers"
    assert "Vegetables: A carrot cures blindness." in hit.text
    assert empty_kb.search("engrave test wand", k=1)[0].doc_id == "spoiler:wand-343.txt.gz"
    assert empty_kb.search("centaurs around delphi", k=1)[0].doc_id == "spoiler:gazetteer/oracle.html"


def test_importing_again_replaces_and_rebuilding_keeps_imports(tmp_path):
    kb = KnowledgeBase.open(tmp_path / "kb.sqlite")  # with the built-in corpus
    kb.import_path(FIXTURES / "nhwiki_sample.json")
    kb.import_path(FIXTURES / "nhwiki_sample.json")
    assert kb.info().counts["wiki"] == (2, 2)
    kb.build(dense=False)
    assert "wiki:sokoban" in kb.documents()
    assert kb.search("sokoban boulder puzzle prize", k=3)[0].doc_id == "wiki:sokoban"
    kb.close()


def test_an_unknown_format_is_refused(tmp_path):
    with pytest.raises(ValueError, match="unknown format"):
        import_documents(FIXTURES / "nhwiki_sample.json", "pdf")
