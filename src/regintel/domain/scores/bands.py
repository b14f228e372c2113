"""Step functions: a value's fraction of a factor's points, from documented lower bounds."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Bands:
    """`floors[i]` is the lowest value that earns `fractions[i + 1]`; below `floors[0]` earns
    `fractions[0]`. Fractions never decrease, so a higher value never scores lower."""

    floors: tuple[float, ...]
    fractions: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.fractions) != len(self.floors) + 1:
            raise ValueError("one more fraction than floors")
        if list(self.floors) != sorted(self.floors) or list(self.fractions) != sorted(self.fractions):
            raise ValueError("floors and fractions must be ascending")

    def fraction(self, value: float) -> float:
        out = self.fractions[0]
        for floor, frac in zip(self.floors, self.fractions[1:], strict=True):
            if value >= floor:
                out = frac
        return out
