"""What a Member State trusted list (ETSI TS 119 612 v2.x) says about a trust service, and what NIS2 makes of
its provider. Pure: no I/O.

- A service's status URI (TS 119 612 clause 5.5.4) says whether it is current: `granted` (the qualified
  status of Regulation (EU) No 910/2014) and `recognisedatnationallevel` (a non-qualified service a Member
  State recognises) are current, `withdrawn` and `deprecatedatnationallevel` are not. The statuses of
  lists before 1 July 2016 (`undersupervision`, `accredited`, ...) are read too.
- A service is *qualified* when its type is one of eIDAS's qualified trust services (`QUALIFIED_TYPES`:
  the `/QC`, `/Q` and `/QTST` type URIs) **and** its status is `granted`: only the supervisory body's
  grant makes a service qualified (eIDAS Art. 21(3)).
- A provider with at least one current qualified service is a qualified trust service provider (eIDAS Art.
  3(20)): essential under NIS2 whatever its size (Art. 2(2)(a)(ii), 3(1)(b)); a provider with current
  services none of which is qualified is a trust service provider (Art. 3(19)); one whose services are all
  withdrawn is neither."""

from __future__ import annotations

from collections.abc import Iterable

SVCTYPE = "http://uri.etsi.org/TrstSvc/Svctype/"
SVCSTATUS = "http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/"

QUALIFIED, NON_QUALIFIED = "qualified_trust_service", "trust_service"

# The qualified trust services of eIDAS Art. 3(16), as TS 119 612 names their service types (D.3), with
# the qualified electronic attestation of attributes of Regulation (EU) 2024/1183.
QUALIFIED_TYPES = frozenset(
    SVCTYPE + t
    for t in (
        "CA/QC",  # qualified certificates for e-signatures, e-seals, website authentication
        "Certstatus/OCSP/QC",  # status of those certificates: part of the qualified certificate service
        "Certstatus/CRL/QC",
        "TSA/QTST",  # qualified electronic time stamps
        "EDS/Q",  # qualified electronic delivery
        "EDS/REM/Q",  # qualified registered e-mail
        "PSES/Q",  # qualified preservation of e-signatures and e-seals
        "QESValidation/Q",  # qualified validation of e-signatures and e-seals
        "RemoteQSigCDManagement/Q",  # remote qualified signature creation devices
        "RemoteQSealCDManagement/Q",
        "EAA/Q",  # qualified electronic attestation of attributes
    )
)

# status (the URI's last segment) -> whether a service with it is current
STATUSES: dict[str, bool] = {
    "granted": True,
    "recognisedatnationallevel": True,
    "withdrawn": False,
    "deprecatedatnationallevel": False,
    # lists before 1 July 2016 (TS 119 612 v1)
    "undersupervision": True,
    "supervisionincessation": True,  # still supervised while it ceases
    "accredited": True,
    "setbynationallaw": True,
    "supervisionceased": False,
    "supervisionrevoked": False,
    "accreditationceased": False,
    "accreditationrevoked": False,
    "deprecatedbynationallaw": False,
}

DESIGNATION_OF = {QUALIFIED: "qualified_trust_service_provider", NON_QUALIFIED: "trust_service_provider"}


def status_word(uri: str) -> str | None:
    """`granted` from `.../Svcstatus/granted`; None for a URI outside TS 119 612's status list."""
    word = uri.strip().rsplit("/", 1)[-1]
    return word if uri.strip().startswith(SVCSTATUS) and word in STATUSES else None


def is_current(word: str) -> bool:
    return STATUSES[word]


def category(service_type: str, word: str) -> str:
    """`qualified_trust_service` for a granted service of a qualified type, else `trust_service`."""
    return QUALIFIED if service_type.strip() in QUALIFIED_TYPES and word == "granted" else NON_QUALIFIED


def designation(services: Iterable[tuple[str, bool]]) -> str | None:
    """The NIS2 designation of a provider from its services' (category, current?) pairs."""
    current = {cat for cat, active in services if active}
    if QUALIFIED in current:
        return DESIGNATION_OF[QUALIFIED]
    return DESIGNATION_OF[NON_QUALIFIED] if current else None


def vat_to_national_id(country: str, vat: str) -> str | None:
    """The national register number a VAT number carries, where the country's rule makes them one: a Czech
    legal person's DIČ is `CZ` + its eight-digit IČO (Act 280/2009 § 130); a Czech DIČ of nine or ten digits
    is a natural person's and a Slovak IČ DPH is `SK` + the DIČ, which is not the IČO, so neither is one."""
    if country == "CZ" and len(vat) == 8 and vat.isdigit():
        return vat
    return None
