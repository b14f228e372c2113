"""Zefix legal forms: the commercial register's internal legal-form id (`legalForm.id` in
ZefixPublicREST, `legalFormId` in the older ZefixREST) → German name and ISO 20275 ELF code.

Only the ids whose meaning is certain are listed (the sample's `legalFormId` 3 is the "société
anonyme" its SOGC notice names; the others as the Zefix legal-form list numbers them); ZefixPublicREST
records carry the form's names themselves, so an id missing here still gets its name there."""

from __future__ import annotations

LEGAL_FORMS: dict[int, tuple[str, str]] = {
    1: ("Einzelunternehmen", "AZA0"),
    2: ("Kollektivgesellschaft", "MRSY"),
    3: ("Aktiengesellschaft", "MVII"),
    4: ("Gesellschaft mit beschränkter Haftung", "3EKS"),
    5: ("Genossenschaft", "QSI2"),
    6: ("Verein", "H781"),
    7: ("Stiftung", "2JZ4"),
    8: ("Institut des öffentlichen Rechts", "7MNN"),
    10: ("Kommanditgesellschaft", "CQMY"),
}

# status -> (status, in_liquidation). PublicREST: ACTIVE, BEING_CANCELLED ("in liquidation" in the
# API's own description), CANCELLED (deleted from the register). ZefixREST: the German enum.
STATUSES: dict[str, tuple[str, bool]] = {
    "ACTIVE": ("active", False),
    "BEING_CANCELLED": ("active", True),
    "CANCELLED": ("dissolved", False),
    "EXISTIEREND": ("active", False),
    "AUFGELOEST": ("active", True),
    "GELOESCHT": ("dissolved", False),
}
