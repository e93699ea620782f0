"""Estimated cost of a round from its token usage.

Why: people should see what a round cost before they run ten more. These are
*estimates* from a small table of list prices in USD per million tokens (as
published by OpenAI when this table was written); real bills may differ, and
self-hosted or gateway models have no price here. Override or extend the table
with a JSON file named by `PINUP_PRICES` (or `--prices`), shaped like
`{"my-model": {"input": 0.5, "output": 1.5}}`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydantic import BaseModel, Field


class Price(BaseModel):
    """USD per million tokens."""

    input: float = Field(ge=0)
    output: float = Field(ge=0)


#: List prices (USD per 1M tokens), estimates only. For gpt-image-1 `output` is
#: the image-output token price, which dominates an image's cost.
DEFAULT_PRICES: dict[str, Price] = {
    "gpt-4.1": Price(input=2.00, output=8.00),
    "gpt-4.1-mini": Price(input=0.40, output=1.60),
    "gpt-4.1-nano": Price(input=0.10, output=0.40),
    "gpt-4o": Price(input=2.50, output=10.00),
    "gpt-4o-mini": Price(input=0.15, output=0.60),
    "gpt-5": Price(input=1.25, output=10.00),
    "gpt-5-mini": Price(input=0.25, output=2.00),
    "gpt-5-nano": Price(input=0.05, output=0.40),
    "gpt-image-1": Price(input=5.00, output=40.00),
    "gpt-image-1-mini": Price(input=2.00, output=8.00),
}

PRICES_ENV = "PINUP_PRICES"


def load_prices(path: str | Path | None = None) -> dict[str, Price]:
    """The default table, overridden by the JSON file at `path` or $PINUP_PRICES."""
    table = dict(DEFAULT_PRICES)
    source = path or os.environ.get(PRICES_ENV)
    if source:
        data = json.loads(Path(source).read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError(f"{source}: expected a JSON object of model -> {{input, output}}")
        for model, price in data.items():
            try:
                table[str(model)] = Price.model_validate(price)
            except ValueError:  # pydantic's ValidationError is a ValueError
                raise ValueError(
                    f'{source}: {model!r} needs {{"input": USD, "output": USD}} per million tokens'
                ) from None
    return table


def price_for(model: str, prices: dict[str, Price]) -> Price | None:
    """Exact match first, then the longest known prefix (dated snapshots like gpt-4.1-2025-04-14)."""
    if model in prices:
        return prices[model]
    matches = [name for name in prices if model.startswith(name + "-")]
    return prices[max(matches, key=len)] if matches else None


def estimate_cost(model: str, input_tokens: int, output_tokens: int, prices: dict[str, Price]) -> float | None:
    """Estimated USD for the tokens, or None when the model has no price."""
    price = price_for(model, prices)
    if price is None:
        return None
    return round((input_tokens * price.input + output_tokens * price.output) / 1_000_000, 6)


def format_cost(cost: float | None, model: str) -> str:
    if cost is None:
        return f"unknown (no price for {model}; add one with PINUP_PRICES)"
    return f"${cost:.4f} (estimate)"
