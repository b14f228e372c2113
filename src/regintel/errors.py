"""The error hierarchy. Each subclass carries its HTTP status and the code of DESIGN.md section 3."""

from __future__ import annotations

from typing import Any, ClassVar


class RegintelError(Exception):
    status: ClassVar[int] = 500
    code: ClassVar[str] = "INTERNAL_ERROR"

    def __init__(self, message: str, details: Any = None, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.message = message
        self.details = details
        self.headers = headers or {}


class Unauthorized(RegintelError):
    status = 401
    code = "UNAUTHORIZED"


class Forbidden(RegintelError):
    status = 403
    code = "FORBIDDEN"


class NotFound(RegintelError):
    status = 404
    code = "NOT_FOUND"


class ValidationFailed(RegintelError):
    status = 422
    code = "VALIDATION_ERROR"


class InvalidIdentifier(ValidationFailed):
    """A national id, VAT id, LEI or IBAN that fails its format or check digits."""


class AmbiguousIdentifier(RegintelError):
    status = 409
    code = "AMBIGUOUS_IDENTIFIER"


class Conflict(RegintelError):
    status = 409
    code = "CONFLICT"


class RateLimited(RegintelError):
    status = 429
    code = "RATE_LIMITED"


class QuotaExceeded(RegintelError):
    status = 429
    code = "QUOTA_EXCEEDED"


class NotImplementedYet(RegintelError):
    status = 501
    code = "NOT_IMPLEMENTED"


class UpstreamUnavailable(RegintelError):
    status = 503
    code = "UPSTREAM_UNAVAILABLE"


class Overloaded(RegintelError):
    """The process has no database connection (or request slot) free within the wait it allows: the
    request is shed at once with a `Retry-After`, rather than queued without bound (DESIGN.md §1)."""

    status = 503
    code = "OVERLOADED"
