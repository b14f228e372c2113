from __future__ import annotations

import pytest

from regintel.domain.names import fold, normalise_name, normalise_query


@pytest.mark.parametrize(
    "name, stored",
    [
        ("Novák Stavby, s. r. o.", "novak stavby"),
        ("SLOVNAFT, a.s.", "slovnaft"),
        ("Žilina Holding spol. s r.o.", "zilina holding"),
        ("UAB Vilniaus statyba", "vilniaus statyba"),
        ("Müller & Söhne GmbH & Co. KG", "muller and sohne"),
        ("Metulword E.E.", "metulword e e"),  # a spelling stored names keep (person keys depend on it)
        ("", ""),
    ],
)
def test_normalise_name(name, stored):
    assert normalise_name(name) == stored


@pytest.mark.parametrize(
    "query, words",
    [
        ("Metulword E.E.", "metulword"),
        ("Chavrndeakis I.K.E.", "chavrndeakis"),
        ("Tsrebbi S.r.l.s.", "tsrebbi"),
        ("Kovač d.n.o.", "kovac"),
        ("Hrad j. s. a.", "hrad"),
        ("MB Vilniaus statyba", "vilniaus statyba"),
        ("Hansen og Sønner AS", "hansen og sonner"),  # "og" only as a whole legal form at an end
        ("I.K.E.", "i k e"),  # nothing but a form: kept, or nothing would be searched
        ("Slovnaft a.s.", "slovnaft"),
    ],
)
def test_normalise_query_drops_dotted_forms(query, words):
    assert normalise_query(query) == words


def test_fold():
    assert fold("Žilina Straße Øster") == "zilina strasse oster"


def test_person_keys_read_names_as_before_transliteration() -> None:
    from regintel.domain.names import person_name_key

    # Stored person keys were made of these: a change would add every such person a second time.
    assert person_name_key("Yevhen Demʼianchuk") == "yevhen dem ianchuk"
    assert person_name_key("ЛУЦЬКИЙ АНДРІЙ") == "луцькии андріи"  # folded, not transliterated
    assert person_name_key("Jan Novák") == normalise_name("Jan Novák") == "jan novak"


def test_spelling_key_folds_umlaut_digraphs() -> None:
    from regintel.domain.names import spelling_key

    assert spelling_key(normalise_name("Dräger Finanz AG")) == spelling_key(
        normalise_name("Draeger Finanz AG")
    )
    assert (
        spelling_key(normalise_name("Müller GmbH"))
        == spelling_key(normalise_name("Mueller GmbH"))
        == "muller"
    )
    assert spelling_key("koeln") == spelling_key("koln") == "koln"
