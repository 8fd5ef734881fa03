"""means.py - the means reports and claims aggregate with: arithmetic, geometric, harmonic.
A geometric or harmonic mean of a zero or negative value, and any mean of a NaN or an infinity,
raises MeanError instead of dropping the value: a run with zero IPC must not vanish from a mean.
Depends on nothing.
"""

import math


class MeanError(ValueError):
    """A mean over values it is not defined for; the message names the value."""


def _check(xs, positive, what):
    xs = list(xs)
    if not xs:
        raise MeanError(f"{what} of no values")
    for x in xs:
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            raise MeanError(f"{what} of a value that is not a finite number: {x!r}")
        if positive and x <= 0:
            raise MeanError(f"{what} of a non-positive value: {x!r}")
    return xs


def arithmetic(xs):
    xs = _check(xs, False, "arithmetic mean")
    return math.fsum(xs) / len(xs)


def geometric(xs):
    xs = _check(xs, True, "geometric mean")
    return math.exp(math.fsum(math.log(x) for x in xs) / len(xs))


def harmonic(xs):
    xs = _check(xs, True, "harmonic mean")
    return len(xs) / math.fsum(1.0 / x for x in xs)
