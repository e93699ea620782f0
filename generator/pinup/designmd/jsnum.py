"""JavaScript number formatting, so exports and messages print numbers as the reference does."""

from __future__ import annotations

import math

#: Decimal digits past which an integer is beyond every double (1.8e308): JavaScript gives Infinity.
MAX_FINITE_DIGITS = 309


def int_to_float(value: int) -> float:
    """`float(value)`, but Infinity (as JavaScript's Number) instead of OverflowError."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def js_parse_int(text: str, base: int = 10) -> int | float:
    """JavaScript `parseInt` of a whole digit string: exact up to 2**53, then the nearest double.

    Never raises: Python refuses to convert more than 4,300 decimal digits, and a double cannot
    hold more than 309, so longer text goes straight to Infinity (a number no document means).
    """
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-").lstrip("0") or "0"
    if base == 10 and len(digits) > MAX_FINITE_DIGITS:
        return sign * math.inf
    value = sign * int(digits, base)
    return value if abs(value) <= 2**53 else int_to_float(value)


def js_number(value: float | int) -> str:
    """`String(value)` in JavaScript: `16` not `16.0`, `1e-7`, `1e+21`, `-0` -> `0`."""
    if type(value) is float:  # the usual case, without taking the digits apart
        magnitude = abs(value)
        if value.is_integer():
            if magnitude < 2**53:  # exact, and JavaScript prints every digit
                return str(int(value))
        elif 1e-4 <= magnitude < 1e16:
            return repr(value)  # the shortest digits, unexponented in Python and JavaScript alike
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if abs(value) < 2**53:
            return str(value)
        value = int_to_float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    text = repr(value)
    mantissa, _, exp_text = text.partition("e")
    digits = mantissa.replace("-", "").replace(".", "")
    if exp_text:
        exponent = int(exp_text)
    else:
        int_part = mantissa.replace("-", "").split(".")[0]
        exponent = (
            len(int_part.lstrip("0")) - 1
            if int_part.strip("0")
            else -(len(mantissa.split(".")[1]) - len(mantissa.split(".")[1].lstrip("0")) + 1)
        )
    digits = digits.lstrip("0").rstrip("0") or "0"
    sign = "-" if value < 0 else ""
    n = exponent + 1  # position of the decimal point relative to the digits
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    exp = n - 1
    exp_str = f"e+{exp}" if exp > 0 else f"e-{-exp}"
    if k == 1:
        return sign + digits + exp_str
    return sign + digits[0] + "." + digits[1:] + exp_str


def to_fixed(value: float, digits: int) -> str:
    """JavaScript `Number.prototype.toFixed`: rounds the exact binary value, ties away from zero.

    Exact integer arithmetic on the float's ratio (not `decimal`, whose import costs `pinup lint`
    start-up time); a result that rounds to zero is written without its minus sign.
    """
    if math.isnan(value):
        return "NaN"
    if math.isinf(value) or abs(value) >= 1e21:
        return js_number(value)
    numerator, denominator = abs(value).as_integer_ratio()
    units, rest = divmod(numerator * 10**digits, denominator)
    if 2 * rest >= denominator:
        units += 1
    text = str(units).rjust(digits + 1, "0")
    if digits:
        text = text[:-digits] + "." + text[-digits:]
    return "-" + text if value < 0 and units else text
