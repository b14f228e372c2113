"""`/companies/{ico}/nis2-priority` reads the stored passive posture (areas.security.service.posture_summary):
a real check of a loopback host with an expired certificate, then the priority through HTTP."""

from __future__ import annotations

from decimal import Decimal

from regintel.domain.types import CompanyRecord, FinancialRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope
from tests.security.conftest import ICO, add_domain, drain, job_settings
from tests.security.servers import well_configured
from tests.security.test_posture import get, https_site

M = 1_000_000


def _energy_company(engine):
    load_companies(
        engine,
        CompanyRecord(
            country="SK",
            national_id=ICO,
            name="Distribúcia Energie a.s.",
            legal_form="121",
            nace_primary="35130",
            employees=900,
            financials=[
                FinancialRecord(
                    year=2024,
                    currency="EUR",
                    revenue=Decimal(300 * M),
                    total_assets=Decimal(500 * M),
                    employees=900,
                )
            ],
        ),
    )


def _posture(view):
    return next(f for f in view["factors"] if f["factor"] == "posture_findings")


def test_priority_posture_not_assessed_then_scored(
    client, auth, engine, settings, dns_server, authority, web
):
    _energy_company(engine)
    host = add_domain(engine, "www.stara-energia.test")
    before = assert_envelope(get(client, auth, "nis2-priority"))
    assert _posture(before) == {
        "factor": "posture_findings",
        "points": 0,
        "max": 15,
        "inputs": {"assessed": False},
        "note": "no passive security check is stored for the company's domains",
    }
    well_configured(dns_server, "stara-energia.test", host)
    https, http = https_site(web, authority, host, days_left=-3)
    assert_envelope(get(client, auth))  # queues the check
    assert (
        drain(
            engine, job_settings(settings, dns_server=dns_server, https=https, http=http, authority=authority)
        )
        == 1
    )
    after = assert_envelope(get(client, auth, "nis2-priority"))
    factor = _posture(after)
    # expired certificate: critical, 40 points off → score 60 → 15 × 40 / 100 = 6 points
    assert factor["points"] == 6 and factor["inputs"]["score"] == 60 and factor["inputs"]["assessed"] is True
    assert factor["inputs"]["by_severity"]["critical"] == 1 and factor["inputs"]["checked_at"].endswith("Z")
    assert after["score"] == min(100, before["score"] + 6) and after["version"] == "nis2-priority-2026.12.1"


def test_priority_posture_of_a_refused_host_is_assessed_without_points(
    client, auth, engine, settings, dns_server
):
    _energy_company(engine)
    host = add_domain(engine, "www.vnutorna.test")
    well_configured(dns_server, "vnutorna.test", host, address="10.1.2.3")
    assert_envelope(get(client, auth))
    assert drain(engine, job_settings(settings, dns_server=dns_server, security_allow_private=False)) == 1
    factor = _posture(assert_envelope(get(client, auth, "nis2-priority")))
    assert (
        factor["points"] == 0 and factor["inputs"]["assessed"] is True and factor["inputs"]["score"] is None
    )
    assert factor["note"] == "no domain could be scored (checks refused or failed)"
