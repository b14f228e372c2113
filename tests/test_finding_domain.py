"""Pure rules behind the filters and breakdowns: NACE spellings, size classes, entity types."""

from __future__ import annotations

import pytest

from regintel.domain.company_size import category
from regintel.domain.entity_types import entity_type
from regintel.domain.nace import NaceQuery, digits, eu_class, parse_nace_query, prefix_range, section_range
from regintel.errors import ValidationFailed


@pytest.mark.parametrize(
    "value, query",
    [
        ("J", NaceQuery(section="J")),
        ("j", NaceQuery(section="J")),
        ("62", NaceQuery(prefix="62")),
        ("62.0", NaceQuery(prefix="620")),
        ("62.01", NaceQuery(prefix="6201")),
        (" 62 01 ", NaceQuery(prefix="6201")),
        ("62010", NaceQuery(prefix="62010")),
        ("62.01.0", NaceQuery(prefix="62010")),
        ("620100", NaceQuery(prefix="620100")),
    ],
)
def test_nace_queries(value, query):
    assert parse_nace_query(value) == query


@pytest.mark.parametrize("value", ["", "6", "V", "JJ", "62.01Z", "6201000", "62-01", "'; --", "٦٢"])
def test_bad_nace_queries(value):
    with pytest.raises(ValidationFailed):
        parse_nace_query(value)


@pytest.mark.parametrize(
    "code, expected_digits, klass",
    [
        ("62.01", "6201", "62.01"),
        ("62010", "62010", "62.01"),
        ("62.01Z", "6201", "62.01"),
        ("62.010", "62010", "62.01"),
        ("62012", "62012", "62.01"),
        ("01", "01", None),
        ("A", None, None),
        (None, None, None),
        ("", None, None),
    ],
)
def test_stored_nace_spellings(code, expected_digits, klass):
    assert digits(code) == expected_digits and eu_class(code) == klass


def test_ranges():
    assert prefix_range("62") == ("62", "63") and prefix_range("629") == ("629", "62:")
    assert section_range(["58", "59", "60", "61", "62", "63"]) == ("58", "64")
    assert section_range(["99"]) == ("99", "100")


@pytest.mark.parametrize(
    "band, expected",
    [
        ("0", "micro"),
        ("1", "micro"),
        ("3-4", "micro"),
        ("5-9", "micro"),
        ("10-19", "small"),
        ("20 - 49", "small"),
        ("50-99", "medium"),
        ("200-249", "medium"),
        ("250-499", "large"),
        ("30000+", "large"),
        ("10000+", "large"),
        ("micro", "micro"),
        ("Large", "large"),
        ("NN", None),
        ("", None),
        (None, None),
        ("-5", None),
    ],
)
def test_size_category(band, expected):
    assert category(band) == expected


@pytest.mark.parametrize(
    "country, form, expected",
    [
        ("SK", "101", "sole_trader"),
        ("SK", "112", "company"),
        ("SK", "121", "company"),
        ("SK", "111", "partnership"),
        ("SK", "113", "partnership"),
        ("SK", "205", "cooperative"),
        ("SK", "117", "non_profit"),
        ("SK", "701", "non_profit"),
        ("SK", "301", "public_body"),
        ("SK", "801", "public_body"),
        ("SK", "421", "branch"),
        ("SK", "995", "other"),
        ("CZ", "112", "company"),
        ("CZ", "424", "sole_trader"),
        ("CZ", "706", "non_profit"),
        ("CZ", "421", "branch"),
        ("FR", "1000", "sole_trader"),
        ("FR", "5710", "company"),
        ("FR", "5499", "company"),
        ("FR", "5202", "partnership"),
        ("FR", "6316", "cooperative"),
        ("FR", "9220", "non_profit"),
        ("FR", "7210", "public_body"),
        ("FR", "3120", "branch"),
        ("NO", "ENK", "sole_trader"),
        ("NO", "as", "company"),
        ("NO", "NUF", "branch"),
        ("NO", "XYZ", "other"),
        ("GB", "ltd", "company"),
        ("GB", "llp", "partnership"),
        ("GB", "cio", "non_profit"),
        ("GB", "zzz", "other"),
        ("SK", None, "unknown"),
        ("SK", "12", "unknown"),
        ("FR", "57", "unknown"),
        ("DE", "GmbH", "unknown"),
    ],
)
def test_entity_types(country, form, expected):
    assert entity_type(country, form) == expected
