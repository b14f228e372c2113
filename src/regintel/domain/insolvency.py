"""The insolvency state of spec 2.2: bankruptcy and restructuring exclude each other; liquidation is
independent of both."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class InsolvencyFlags:
    in_bankruptcy: bool = False
    in_restructuring: bool = False
    in_liquidation: bool = False

    def __post_init__(self) -> None:
        if self.in_bankruptcy and self.in_restructuring:
            raise ValueError("a company cannot be in bankruptcy and in restructuring at once")


def merge_flags(
    current: InsolvencyFlags, bankruptcy: bool | None, restructuring: bool | None, liquidation: bool | None
) -> InsolvencyFlags:
    """Apply a source's statement to the current state.

    A declared bankruptcy ends a restructuring (and a restructuring that starts means the bankruptcy
    ended), so a flag the source sets to true clears the other unless the source says both are true,
    which is refused.
    """
    if bankruptcy and restructuring:
        raise ValueError("a source record cannot declare bankruptcy and restructuring at once")
    b = current.in_bankruptcy if bankruptcy is None else bankruptcy
    r = current.in_restructuring if restructuring is None else restructuring
    if bankruptcy:
        r = False
    elif restructuring:
        b = False
    return InsolvencyFlags(b, r, current.in_liquidation if liquidation is None else liquidation)
