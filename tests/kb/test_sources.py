"""Reading NetHack's own texts out of NLE's playground: the dlb archive, its scrambling, the plain files."""

from __future__ import annotations

import gzip

from hackwright.kb import sources as S
from hackwright.kb import tables


def test_nles_nhdat_archive_lists_the_game_texts():
    archive = S.DlbArchive(S.nethack_dir() / "nhdat")
    names = archive.names()
    for member in ("help", "data", "rumors", "oracles"):
        assert member in names
    assert archive.read("help").startswith(b"        Welcome to NetHack!")


def test_xcrypt_is_its_own_inverse():
    text = "They say that the gods get angry if you pray too much."
    assert S.xcrypt(text) != text
    assert S.xcrypt(S.xcrypt(text)) == text


def test_the_archived_rumors_decode_to_the_plain_true_rumors():
    archived = S.NetHackTexts(prefer_archive=True)
    assert archived.origin() == "nhdat"
    rumors = archived.true_rumors()
    assert len(rumors) > 300
    assert "Lizard corpses protect against cockatrices." in rumors
    plain = (S.nethack_dir() / "dat" / "rumors.tru")
    if plain.is_file():
        assert rumors == S.NetHackTexts().true_rumors()


def test_the_archive_and_the_plain_files_give_the_same_encyclopedia_and_oracles():
    archived = S.NetHackTexts(prefer_archive=True)
    entries = archived.encyclopedia()
    oracles = archived.oracles()
    assert len(entries) > 400 and len(oracles) >= 20
    assert any("floating eye" in keys for keys, _ in entries)
    assert any("cockatrice" in o for o in oracles)
    if (S.nethack_dir() / "dat" / "data.base").is_file():
        plain = S.NetHackTexts()
        assert entries == plain.encyclopedia()
        assert oracles == plain.oracles()


def test_encyclopedia_entries_are_titled_with_real_names_even_behind_wildcards():
    docs = {d.doc_id: d for d in S.encyclopedia_documents(S.NetHackTexts(), tables.known_names())}
    # data.base keys the cockatrice entry as "c*ckatrice" and the entry starts with "~" exclusions elsewhere.
    assert "encyclopedia:cockatrice" in docs
    eye = docs["encyclopedia:floating eye"]
    assert "paralyse" in eye.text and eye.source == "encyclopedia"


def test_help_files_keep_their_section_headings():
    docs = {d.doc_id: d for d in S.help_documents(S.NetHackTexts())}
    assert {"help:help", "help:hh", "help:cmdhelp", "help:opthelp"} <= set(docs)
    headings = [s.heading for s in docs["help:hh"].sections]
    assert "General commands" in headings


def test_a_guidebook_is_split_at_its_numbered_headings(tmp_path):
    # The shape of the Guidebook as nroff renders it: indented, justified, page headers, hyphenation.
    text = (
        "                 A Guide to the Mazes of Menace\n\n"
        "          1.  Introduction\n"
        "               Recently,  you  have  begun to find yourself unfulfilled and\n"
        "          distant in your daily occupation.\n\n"
        "          NetHack Guidebook                                               1\n\n"
        "          5.2.  Traps (`^')\n"
        "               There  are traps throughout the dungeon to snare the unwary in-\n"
        "          truder.\n"
    )
    path = tmp_path / "Guidebook.txt.gz"
    path.write_bytes(gzip.compress(text.encode()))
    [doc] = S.guidebook_documents(path)
    headings = [s.heading for s in doc.sections]
    assert headings[-2:] == ["1. Introduction", "5.2. Traps (`^')"]
    traps = doc.sections[-1].text
    assert "unwary intruder." in traps and "Guidebook" not in traps
