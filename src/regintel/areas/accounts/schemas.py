"""Request and response models of the account routes (the OpenAPI document is the body)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, model_validator

_STRICT = ConfigDict(extra="forbid", strict=True)
_PERSON_KEY = re.compile(r"(p:)?[0-9a-f]{32}")
# A name must hold one character that is neither a control nor a space (every character Python's
# str.strip() removes is in the class), said in the schema so that a blank name is refused by the schema
# and never by the server after it (issue 16: a schema-valid value is never refused).
VISIBLE_NAME = r"[^\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"


class WelcomeIn(BaseModel):
    model_config = _STRICT
    email: StrictStr | None = Field(
        default=None, max_length=320, description="Send a sign-in link to this address"
    )
    token: StrictStr | None = Field(default=None, max_length=1000, description="The token of a sign-in link")

    @model_validator(mode="after")
    def _one(self) -> WelcomeIn:
        if (self.email is None) == (self.token is None):
            raise ValueError("send exactly one of `email` (ask for a link) and `token` (sign in)")
        return self


class WelcomeOut(BaseModel):
    status: str = Field(description="`link_sent` or `signed_in`")
    message: str
    csrf_token: str | None = Field(
        default=None,
        description="On sign-in: the value to send in X-CSRF-Token (also set as the `regintel_csrf` cookie)",
    )


class SignOutOut(BaseModel):
    status: str = Field(description="`signed_out`")


class KeyOut(BaseModel):
    id: int
    name: str
    plan: str
    prefix: str
    created_at: dt.datetime
    expires_at: dt.datetime | None
    revoked_at: dt.datetime | None
    last_used_at: dt.datetime | None
    active: bool


class NewKeyOut(KeyOut):
    key: str = Field(description="The raw key: shown once, stored only as a hash")


class WatchOut(BaseModel):
    id: int
    status: str = Field(description="pending | confirmed | unsubscribed")
    country: str
    national_id: str
    company_name: str
    company_status: str
    created_at: dt.datetime
    confirmed_at: dt.datetime | None
    unsubscribed_at: dt.datetime | None


class WatchStateOut(BaseModel):
    total: int
    confirmed: int
    unsubscribed: int
    pending: int
    items: list[WatchOut]


class AddendumOut(BaseModel):
    accepted: bool
    text_version: str | None = None
    person_name: str | None = None
    accepted_at: dt.datetime | None = None
    revoked_at: dt.datetime | None = None


class IdentityOut(BaseModel):
    id: int
    provider: str
    email: str | None = Field(description="The verified address the provider gave, if any")
    created_at: dt.datetime
    last_login_at: dt.datetime | None


class PassOut(BaseModel):
    id: int
    plan: str
    paid_at: dt.datetime
    claimed_at: dt.datetime | None = Field(description="When it became a key; null: still to be used")
    api_key_id: int | None
    use_by: dt.datetime = Field(description="An unused pass becomes a key by then (90 days after payment)")
    refunded_at: dt.datetime | None = Field(description="Refunded by the provider: its key is revoked")
    status: str = Field(description="`unused`, `claimed`, `expired` (not used by `use_by`) or `refunded`")


class AccountUsageOut(BaseModel):
    used: int = Field(description="Requests counted this month by all the account's keys and OAuth tokens")
    limit: int = Field(description="The monthly quota of the account's plan")
    remaining: int
    resets_at: dt.datetime = Field(description="Start of the next month (UTC)")


class AccountOut(BaseModel):
    id: int
    email: str
    plan: str
    created_at: dt.datetime
    last_login_at: dt.datetime | None
    api_keys: list[KeyOut]
    watches: list[WatchOut]
    fo_addendum: AddendumOut
    identities: list[IdentityOut] = Field(description="OpenID Connect identities linked to the account")
    identity_providers: list[str] = Field(
        description="Providers this deployment offers for sign-in and linking"
    )
    passes: list[PassOut] = Field(default_factory=list, description="Paid one-time passes (day or week)")
    usage: AccountUsageOut | None = Field(
        default=None,
        description="The account's monthly quota this month, shared by its keys and OAuth tokens (a pass "
        "counts against its own budget, shown by its key's `GET /api/v1/me`); null for a plan without one",
    )


class IdentityLinkOut(BaseModel):
    authorization_url: str = Field(
        description="Open it in this browser; the provider returns to the callback"
    )


class IdentityUnlinkOut(BaseModel):
    provider: str
    unlinked: int


class KeyCreateIn(BaseModel):
    model_config = _STRICT
    name: StrictStr = Field(min_length=1, max_length=100, pattern=VISIBLE_NAME)
    pass_id: StrictInt | None = Field(
        default=None,
        gt=0,
        lt=2**62,
        description="A paid, unused pass of the "
        "account (`passes` of `GET /account`): the key gets the pass's plan, budget "
        "and validity from now",
    )


class KeyRenameIn(BaseModel):
    model_config = _STRICT
    name: StrictStr = Field(min_length=1, max_length=100, pattern=VISIBLE_NAME)


class WatchIn(BaseModel):
    model_config = _STRICT
    ico: StrictStr = Field(min_length=1, max_length=40, description="National identifier")
    country: StrictStr | None = Field(default=None, min_length=2, max_length=2)


class AddendumIn(BaseModel):
    model_config = _STRICT
    text_version: StrictStr = Field(
        min_length=1,
        max_length=32,
        description="Version of the addendum text accepted; must be the current one",
    )
    person_name: StrictStr = Field(min_length=1, max_length=200, description="The person accepting it")
    accept: StrictBool = Field(description="Must be true")


class OAuthClientIn(BaseModel):
    model_config = _STRICT
    name: StrictStr = Field(min_length=1, max_length=100)
    redirect_uris: list[StrictStr] = Field(
        min_length=1,
        max_length=10,
        description="Exact redirect URIs: https, or http on a loopback address (native and CLI clients)",
    )


class OAuthClientOut(BaseModel):
    client_id: str
    name: str
    redirect_uris: list[str]
    token_endpoint_auth_method: str = Field(description="Always `none`: public clients, PKCE S256 required")
    grant_types: list[str]
    created_at: dt.datetime
    revoked_at: dt.datetime | None


class ConsentOut(BaseModel):
    client_id: str
    client_name: str = Field(
        description="As the client registered it: not verified by anyone when `registration` is `dynamic`"
    )
    scope: str
    redirect_uri: str | None
    registration: str = Field(
        default="account",
        description="`account`: registered on an account page; "
        "`dynamic`: registered by itself (RFC 7591), so the page should say its name is "
        "unverified",
    )


class ApproveIn(BaseModel):
    model_config = _STRICT
    approve: StrictBool = Field(description="true: issue a code; false: redirect with `access_denied`")


class ApproveForm(BaseModel):
    """The consent page's form (a plain form cannot send the CSRF header, so the token is a field)."""

    model_config = ConfigDict(extra="forbid")
    decision: Literal["approve", "deny"]
    csrf_token: StrictStr = Field(min_length=1, max_length=100)


class LeadIn(BaseModel):
    model_config = _STRICT
    email: StrictStr | None = Field(default=None, max_length=320)
    use_case: StrictStr | None = Field(default=None, max_length=2000)
    source: StrictStr | None = Field(default=None, max_length=100)
    token: StrictStr | None = Field(
        default=None,
        max_length=1000,
        description="The token of the confirmation e-mail (double opt-in); send it alone",
    )
    website: StrictStr | None = Field(default=None, max_length=200, description="Honeypot: leave empty")

    @model_validator(mode="after")
    def _one(self) -> LeadIn:
        if (self.email is None) == (self.token is None):
            raise ValueError("send `email` (to sign up) or `token` (to confirm), not both")
        if self.token is not None and (self.use_case is not None or self.source is not None):
            raise ValueError("`token` is sent alone")
        return self


class NewsletterIn(BaseModel):
    model_config = _STRICT
    email: StrictStr | None = Field(default=None, max_length=320)
    token: StrictStr | None = Field(default=None, max_length=1000)
    website: StrictStr | None = Field(default=None, max_length=200, description="Honeypot: leave empty")

    @model_validator(mode="after")
    def _one(self) -> NewsletterIn:
        if (self.email is None) == (self.token is None):
            raise ValueError("send `email` (to sign up) or `token` (to confirm), not both")
        return self


class FormOut(BaseModel):
    status: str
    message: str


class StatsOut(BaseModel):
    total: int = Field(description="Confirmed leads")
    last30d: int = Field(description="Leads confirmed in the last 30 days")


class PrivacyIn(BaseModel):
    model_config = _STRICT
    email: StrictStr | None = Field(default=None, max_length=320)
    details: StrictStr | None = Field(
        default=None, max_length=5000, description="What to rectify, or context"
    )
    person_name: StrictStr | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="erase/object: the name under which the register lists you, for the operator to match",
    )
    person_keys: list[StrictStr] | None = Field(
        default=None,
        max_length=20,
        description="erase/object: the "
        "person keys (`p:…`, as the API shows them) of the records "
        "that are you, if known",
    )
    token: StrictStr | None = Field(
        default=None, max_length=1000, description="The token of the verification e-mail; send it alone"
    )

    @model_validator(mode="after")
    def _one(self) -> PrivacyIn:
        if (self.email is None) == (self.token is None):
            raise ValueError("send `email` (to file the request) or `token` (to confirm it), not both")
        if self.token is not None and (self.person_name or self.person_keys or self.details):
            raise ValueError("send the token alone")
        for key in self.person_keys or []:
            if not _PERSON_KEY.fullmatch(key):
                raise ValueError("a person key is 32 hexadecimal digits, optionally after `p:`")
        return self


class PrivacyOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    status: str
    kind: str
    message: str | None = None
    request_id: int | None = None
    outcome: str | None = None
    due_at: dt.datetime | None = None
    export: dict[str, Any] | None = Field(
        default=None, description="`access`: what the service holds about the address"
    )


class ApiSignupIn(BaseModel):
    model_config = _STRICT
    email: StrictStr | None = Field(default=None, max_length=320)
    token: StrictStr | None = Field(default=None, max_length=1000)
    website: StrictStr | None = Field(default=None, max_length=200, description="Honeypot: leave empty")

    @model_validator(mode="after")
    def _one(self) -> ApiSignupIn:
        if (self.email is None) == (self.token is None):
            raise ValueError("send `email` (to sign up) or `token` (to confirm), not both")
        return self


class ApiSignupOut(BaseModel):
    status: str
    message: str
    csrf_token: str | None = None
    api_key: NewKeyOut | None = None


class CheckoutIn(BaseModel):
    model_config = _STRICT
    plan: StrictStr = Field(min_length=1, max_length=32, description="A plan of this deployment")
    kind: StrictStr = Field(default="subscription", pattern="^(subscription|pack)$")


class CheckoutOut(BaseModel):
    url: str = Field(description="The provider's hosted checkout page; the person pays there")
    session_id: str
    expires_at: dt.datetime | None = None
    plan: str
    mode: str = Field(description="`subscription`, or `payment` for a one-time pass")
    provider: str


class PortalOut(BaseModel):
    url: str = Field(description="The provider's customer portal (invoices, card, plan change, cancellation)")
    provider: str


class SuggestPlanOut(BaseModel):
    plan: str
    title: str
    monthly_quota: int | None
    for_sale: bool


class SuggestOut(BaseModel):
    current_plan: str
    suggested_plan: str
    reason: str
    month: str
    month_elapsed: float = Field(description="Share of the month elapsed (at least one day)")
    used: int = Field(
        description="Requests counted this month against the account's monthly quota (all its keys and "
        "OAuth tokens; passes count against their own budgets)"
    )
    projected: int = Field(description="`used` spread over the whole month: what the plan must hold")
    for_sale: bool = Field(
        description="Whether the suggested plan can be bought here (POST /account/billing)"
    )
    plans: list[SuggestPlanOut]


class WebhookOut(BaseModel):
    event_id: str
    type: str
    outcome: str


class PasskeyOptionsIn(BaseModel):
    model_config = _STRICT
    kind: StrictStr = Field(
        pattern="^(registration|authentication)$",
        description="`registration` needs the session and CSRF token; `authentication` needs nothing",
    )


class PasskeyOptionsOut(BaseModel):
    options: dict[str, Any] = Field(
        description="PublicKeyCredentialCreationOptions / RequestOptions (JSON form)"
    )
    challenge_token: str = Field(description="Send back with the credential (valid 5 minutes)")


class PasskeyVerifyIn(BaseModel):
    model_config = _STRICT
    kind: StrictStr = Field(pattern="^(registration|authentication)$")
    challenge_token: StrictStr = Field(max_length=2000)
    credential: dict[str, Any] = Field(description="The PublicKeyCredential as JSON (base64url fields)")


class PasskeyVerifyOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    status: str
