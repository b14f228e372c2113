"""Path convertors and shared path/query parameter declarations."""

from __future__ import annotations

from starlette.convertors import Convertor, register_url_convertor


class CountryConvertor(Convertor[str]):
    """Two letters: lets `/companies/{country}/{national_id}` and `/companies/{ico}/history` coexist,
    since routing (not validation) then tells a country code from a national identifier."""

    regex = "[A-Za-z]{2}"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("cc", CountryConvertor())
