"""Offshore jurisdictions: the list of offshore financial centres of the Financial Stability Forum.

Source: Financial Stability Forum, "Report of the Working Group on Offshore Centres", 5 April 2000,
the grouping of 42 offshore financial centres by perceived quality of supervision and co-operation
(Group I highest, Group III lowest), the list the IMF used for its OFC assessment programme
(IMF, "Offshore Financial Centers: IMF Background Paper", 23 June 2000). A published, citable
list of jurisdictions, chosen over lists that change twice a year (the EU list of non-cooperative
jurisdictions for tax purposes) or that rank rather than list (the Financial Secrecy Index).

Codes are ISO 3166-1 alpha-2, except Labuan (ISO 3166-2 `MY-15`: the rest of Malaysia is not on the
list). The Netherlands Antilles (`AN`) were dissolved in 2010; their successors Curaçao (`CW`),
Sint Maarten (`SX`) and Bonaire, Sint Eustatius and Saba (`BQ`) are listed in their place, and `AN`
is kept for records that still use it. Dublin's IFSC was the listed centre; Ireland (`IE`) stands for it.
"""

from __future__ import annotations

from dataclasses import dataclass

SOURCE = (
    "Financial Stability Forum, Report of the Working Group on Offshore Centres (5 April 2000), "
    "offshore financial centres by group"
)


@dataclass(frozen=True)
class Jurisdiction:
    code: str
    name: str
    group: int  # FSF group: 1, 2 or 3


_GROUPS: dict[int, tuple[tuple[str, str], ...]] = {
    1: (
        ("HK", "Hong Kong"),
        ("LU", "Luxembourg"),
        ("SG", "Singapore"),
        ("CH", "Switzerland"),
        ("IE", "Ireland (Dublin IFSC)"),
        ("GG", "Guernsey"),
        ("IM", "Isle of Man"),
        ("JE", "Jersey"),
    ),
    2: (
        ("AD", "Andorra"),
        ("BH", "Bahrain"),
        ("BB", "Barbados"),
        ("BM", "Bermuda"),
        ("GI", "Gibraltar"),
        ("MY-15", "Labuan (Malaysia)"),
        ("MO", "Macao"),
        ("MT", "Malta"),
        ("MC", "Monaco"),
    ),
    3: (
        ("AI", "Anguilla"),
        ("AG", "Antigua and Barbuda"),
        ("AW", "Aruba"),
        ("BS", "Bahamas"),
        ("BZ", "Belize"),
        ("VG", "British Virgin Islands"),
        ("KY", "Cayman Islands"),
        ("CK", "Cook Islands"),
        ("CR", "Costa Rica"),
        ("CY", "Cyprus"),
        ("LB", "Lebanon"),
        ("LI", "Liechtenstein"),
        ("MH", "Marshall Islands"),
        ("MU", "Mauritius"),
        ("NR", "Nauru"),
        ("AN", "Netherlands Antilles"),
        ("CW", "Curaçao (Netherlands Antilles)"),
        ("SX", "Sint Maarten (Netherlands Antilles)"),
        ("BQ", "Bonaire, Sint Eustatius and Saba (Netherlands Antilles)"),
        ("NU", "Niue"),
        ("PA", "Panama"),
        ("KN", "Saint Kitts and Nevis"),
        ("LC", "Saint Lucia"),
        ("VC", "Saint Vincent and the Grenadines"),
        ("WS", "Samoa"),
        ("SC", "Seychelles"),
        ("TC", "Turks and Caicos Islands"),
        ("VU", "Vanuatu"),
    ),
}

JURISDICTIONS: dict[str, Jurisdiction] = {
    code: Jurisdiction(code, name, group) for group, items in _GROUPS.items() for code, name in items
}


def offshore(code: str | None, groups: frozenset[int] = frozenset({1, 2, 3})) -> Jurisdiction | None:
    """The listed jurisdiction of an ISO 3166 code (`KY`, `ky`, `MY-15`), if it is on the list in one
    of `groups`."""
    if not code:
        return None
    found = JURISDICTIONS.get(code.strip().upper())
    return found if found is not None and found.group in groups else None
