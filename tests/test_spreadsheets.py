"""Card data from spreadsheets: CSV as a spreadsheet writes it, and XLSX workbooks."""
from __future__ import annotations

import pytest
from openpyxl import Workbook

from cardgen.deck import load_deck
from cardgen.errors import CardgenError


def deck_with(tmp_path, source: str) -> object:
    (tmp_path / "d.yaml").write_text(f"deck: d\nname: D\n{source}\n", encoding="utf-8")
    return tmp_path / "d.yaml"


def write_csv(tmp_path, text: str) -> None:
    (tmp_path / "cards.csv").write_bytes(text.encode("utf-8"))


def test_a_line_break_inside_a_quoted_cell_is_kept(tmp_path):
    write_csv(tmp_path, 'id,title,text\nx,X,"First line\nsecond"\n')
    card = load_deck(deck_with(tmp_path, "csv: cards.csv")).cards[0]
    assert card.text == "First line\nsecond"


def test_error_lines_after_a_multi_line_cell_are_the_physical_lines(tmp_path):
    write_csv(tmp_path, 'id,title,text,copies\na,A,"one\ntwo\nthree",1\nb,B,ok,many\n')
    with pytest.raises(CardgenError) as caught:
        load_deck(deck_with(tmp_path, "csv: cards.csv"))
    assert "cards.csv:5:4: copies must be a whole number" in str(caught.value)


@pytest.mark.parametrize("char", ["\u2028", "\x0c", "\x0b", "\x85"])
def test_unusual_line_separators_inside_a_cell_are_text_not_new_rows(tmp_path, char):
    write_csv(tmp_path, f"id,title,text\nx,X,left{char}right\n")
    cards = load_deck(deck_with(tmp_path, "csv: cards.csv")).cards
    assert len(cards) == 1 and cards[0].text == f"left{char}right"


def test_extra_columns_become_fields_with_plain_names(tmp_path):
    write_csv(tmp_path, "id,title,Flavour Text,cost,layout\nx,X,Brave,3,\n")
    card = load_deck(deck_with(tmp_path, "csv: cards.csv")).cards[0]
    assert card.fields == {"flavour_text": "Brave", "cost": "3"}


@pytest.mark.parametrize("header, words", [
    ("id,title,cost,cost", "column 'cost' appears twice"),
    ("id,title,Cost (gold)", "cannot be a field name"),
    ("id,title,,x", "a column has no name"),
])
def test_header_mistakes_name_the_cell(tmp_path, header, words):
    write_csv(tmp_path, header + "\n" + ",".join(["a", "A"] + [""] * (header.count(",") - 1)) + "\n")
    with pytest.raises(CardgenError, match=words) as caught:
        load_deck(deck_with(tmp_path, "csv: cards.csv"))
    assert "cards.csv:1:" in str(caught.value)


def write_book(path, rows, sheet="Cards") -> None:
    book = Workbook()
    ws = book.active
    ws.title = sheet
    for row in rows:
        ws.append(row)
    book.create_sheet("Notes").append(["not cards"])
    book.save(path)


def test_cards_come_from_an_xlsx_workbook_sheet(tmp_path):
    write_book(tmp_path / "cards.xlsx", [["id", "title", "text", "copies", "cost"],
                                         ["x", "Ex", "line one\nline two", 2, 3],
                                         ["y", "Why", None, None, 1.5]])
    deck = load_deck(deck_with(tmp_path, "xlsx: {file: cards.xlsx, sheet: Cards}"))
    assert [(c.id, c.copies, c.fields["cost"]) for c in deck.cards] == [("x", 2, "3"), ("y", 1, "1.5")]
    assert deck.cards[0].text == "line one\nline two"
    assert str(deck.cards[1].location).endswith("cards.xlsx:Cards!A3")


def test_xlsx_errors_are_located_as_file_sheet_and_cell(tmp_path):
    write_book(tmp_path / "cards.xlsx", [["id", "title", "copies"], ["x", "Ex", "lots"]])
    with pytest.raises(CardgenError) as caught:
        load_deck(deck_with(tmp_path, "xlsx: cards.xlsx"))
    assert str(caught.value).endswith("copies must be a whole number, got 'lots'")
    assert "cards.xlsx:Cards!C2:" in str(caught.value)


def test_a_missing_sheet_is_named_with_the_sheets_there_are(tmp_path):
    write_book(tmp_path / "cards.xlsx", [["id", "title"], ["x", "Ex"]])
    with pytest.raises(CardgenError, match=r"no sheet 'Crads' \(did you mean 'Cards'\?\); sheets: Cards, Notes"):
        load_deck(deck_with(tmp_path, "xlsx: {file: cards.xlsx, sheet: Crads}"))


def test_a_file_that_is_not_a_workbook_is_refused_where_the_deck_names_it(tmp_path):
    (tmp_path / "cards.xlsx").write_text("id,title\nx,Ex\n")
    with pytest.raises(CardgenError, match="not a readable XLSX workbook") as caught:
        load_deck(deck_with(tmp_path, "xlsx: cards.xlsx"))
    assert ":3:" in str(caught.value)
