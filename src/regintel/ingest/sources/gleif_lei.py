"""One LEI-CDF 3.1 record (in GLEIF's JSON shape) → a LeiRecord, and a CompanyRecord when its
registration authority entry resolves to one of our company keys (spec 2.4)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from regintel.domain.types import CompanyKey, CompanyRecord, LeiRecord, Record
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError
from regintel.ingest.sources.gleif_common import Node, child, children, code, day, lei, text, timestamp
from regintel.ingest.sources.gleif_registers import company_key

# An annulled LEI was issued in error and a duplicate is the deactivated twin of another LEI: neither
# speaks for the company, so they are kept as LEI records but do not feed its data.
NOT_THE_COMPANY = frozenset({"ANNULLED", "DUPLICATE"})
NO_LEGAL_FORM = frozenset({"8888", "9999"})  # ISO 20275: not yet on the list / no legal form
ENDED = frozenset({"DISSOLVED", "CORPORATE_ACTION"})  # EntityExpirationReason meaning the entity ceased


def map_lei_record(node: Node, published_on: date | None) -> list[Record | RecordError]:
    """The records of one LEI record; a RecordError first when its register id cannot be linked."""
    code_ = lei(text(node, "LEI"))
    entity = child(node, "Entity") or {}
    registration = child(node, "Registration") or {}
    name = text(entity, "LegalName")
    status = code(registration, "RegistrationStatus", width=24)
    if not name or not status:
        raise RecordError(f"no LegalName or RegistrationStatus: {code_}")
    ra_code = code(entity, "RegistrationAuthority", "RegistrationAuthorityID", width=16)
    ra_entity = code(entity, "RegistrationAuthority", "RegistrationAuthorityEntityID", width=64)
    out: list[Record | RecordError] = []
    try:
        key = company_key(ra_code, ra_entity)
    except InvalidIdentifier as exc:
        key = None
        out.append(
            RecordError(
                f"LEI not linked to a company (invalid national id): {code_}: {exc.message}",
                {"lei": code_, "ra_code": ra_code, "ra_entity_id": ra_entity},
            )
        )
    record = LeiRecord(
        lei=code_,
        legal_name=name,
        registration_status=status,
        company=key,
        entity_status=code(entity, "EntityStatus", width=16),
        entity_category=code(entity, "EntityCategory", width=32),
        legal_form=code(entity, "LegalForm", "EntityLegalFormCode", width=8),
        ra_code=ra_code,
        ra_entity_id=ra_entity,
        country=_country(code(entity, "LegalAddress", "Country", width=2)),
        jurisdiction=code(entity, "LegalJurisdiction", width=8),
        city=text(entity, "LegalAddress", "City"),
        managing_lou=code(registration, "ManagingLOU", width=20),
        validation_sources=code(registration, "ValidationSources", width=32),
        conformity_flag=code(node, "ConformityFlag", width=24)
        or code(node, "Extension", "gleif:conformity", "gleif:conformityflag", width=24),
        initial_registration=timestamp(registration, "InitialRegistrationDate"),
        last_update=timestamp(registration, "LastUpdateDate"),
        next_renewal=timestamp(registration, "NextRenewalDate"),
    )
    if key is not None and status not in NOT_THE_COMPANY:
        published = published_on or (record.last_update.date() if record.last_update else None)
        out.append(_company(key, record, entity, published))  # before the LEI record, which links to it
    out.append(record)
    return out


def _country(value: str | None) -> str | None:
    if value is not None and not value.isalpha():
        raise RecordError(f"LegalAddress/Country is not a country code: {value!r}")
    return value.upper() if value else None


def _company(key: CompanyKey, record: LeiRecord, entity: Node, published: date | None) -> CompanyRecord:
    form = record.legal_form
    state = _state(entity)
    address = _Address.of(child(entity, "LegalAddress") or {})
    return CompanyRecord(
        country=key.country,
        national_id=key.national_id,
        name=record.legal_name,
        source_record_id=record.lei,
        published_on=published,
        legal_form=form if form not in NO_LEGAL_FORM else None,
        legal_form_name=text(entity, "LegalForm", "OtherLegalForm"),
        status=state.status,
        founded_on=day(entity, "EntityCreationDate"),
        dissolved_on=state.dissolved_on,
        street=address.street,
        city=address.city,
        postal_code=address.postal_code,
        address_text=address.text,
        lei=record.lei,
        in_bankruptcy=state.bankruptcy,
        in_liquidation=state.liquidation,
    )


@dataclass
class _State:
    status: str | None = None
    dissolved_on: date | None = None
    bankruptcy: bool | None = None
    liquidation: bool | None = None


def _state(entity: Node) -> _State:
    """Status from EntityStatus, the expiration and the legal entity events (LEI-CDF 3.1)."""
    state = _State({"ACTIVE": "active", "INACTIVE": "inactive"}.get(text(entity, "EntityStatus") or ""))
    for event in children(entity, "LegalEntityEvents", "LegalEntityEvent"):
        kind, done = text(event, "LegalEntityEventType"), text(event, "@event_status") == "COMPLETED"
        if kind == "DISSOLUTION" and done:
            state.status, state.dissolved_on = "dissolved", day(event, "LegalEntityEventEffectiveDate")
        elif kind == "LIQUIDATION":
            state.liquidation = not done
        elif kind in ("BANKRUPTCY", "INSOLVENCY"):
            # GLEIF's INSOLVENCY is the opening of insolvency proceedings without telling
            # reorganisation from liquidation of assets; the spec's nearest state is bankruptcy.
            state.bankruptcy = not done
    if text(entity, "EntityExpirationReason") in ENDED:
        state.status = "dissolved"
        state.dissolved_on = day(entity, "EntityExpirationDate") or state.dissolved_on
    return state


@dataclass
class _Address:
    street: str | None
    city: str | None
    postal_code: str | None
    text: str | None

    @classmethod
    def of(cls, node: Node) -> _Address:
        street = " ".join(filter(None, [text(node, "FirstAddressLine"), text(node, "AddressNumber")])) or None
        city, postal = text(node, "City"), text(node, "PostalCode")
        extra = [text(line) for line in children(node, "AdditionalAddressLine")]
        parts = [
            text(node, "MailRouting"),
            street,
            text(node, "AddressNumberWithinBuilding"),
            *extra,
            " ".join(filter(None, [postal, city])),
        ]
        return cls(
            street,
            city,
            postal if postal is None or len(postal) <= 16 else None,
            ", ".join(p for p in parts if p) or None,
        )
