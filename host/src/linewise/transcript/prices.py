"""Estimated costs: a run's tokens priced per model and token kind from genai-prices' table.

Only used where a CLI reports no cost; a reported cost is never replaced. The
price table is the one the ``genai-prices`` distribution ships (the
``linewise[prices]`` extra): nothing is fetched, so estimates work offline and
say which version of the table priced them. genai-prices is heavy to import
(pydantic and a 1.5 MB table, about a second), so it is imported on the first
estimate only, and the rates it gives are kept in a small file in the user
cache folder (``prices.json``, per version of the table): later runs read the
rates they need from there without importing it. :func:`price_data` reads its
version without importing it either.

Each kind is priced at its own list rate: uncached input, cache reads and
cache writes (the 5-minute write rate, as Claude Code writes its cache), and
output (reasoning is part of output and not priced again). A provider without
a cache rate (OpenAI charges no cache writes) prices those tokens as input.
Tiered rates (a request above 200k tokens, say) are not applied: linewise
keeps a run's totals, not each request's size, so every token is priced at the
base rate. A model the table does not know is never guessed: its cost stays
unknown and the estimate names it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Protocol

from linewise.settings.logs import logger

if TYPE_CHECKING:
    from pathlib import Path

    from linewise_contracts.summary import RunSummary

__all__ = [
    "NO_MODEL",
    "PRICE_DISTRIBUTION",
    "Estimate",
    "Rates",
    "TokenCounts",
    "cost_source",
    "estimate_cost",
    "price_data",
    "priced",
    "rates_for",
    "warn_unpriced",
]


#: The distribution whose bundled table prices the estimates.
PRICE_DISTRIBUTION: Final = "genai-prices"
#: What stands for the model of tokens whose model the CLI did not name.
NO_MODEL: Final = "(model not reported)"
_PER: Final = 1_000_000


class TokenCounts(Protocol):
    """A run's (or one model's) tokens by kind; None where the CLI did not report the kind."""

    @property
    def uncached_input(self) -> int | None: ...
    @property
    def cache_read(self) -> int | None: ...
    @property
    def cache_write(self) -> int | None: ...
    @property
    def output(self) -> int | None: ...


# A NamedTuple, not a frozen dataclass: building one cost ~4 M instructions at import.
class Rates(NamedTuple):
    """One model's list prices in US dollars per million tokens, by kind."""

    model: str
    provider: str
    uncached_input: float
    cache_read: float
    cache_write: float
    output: float

    def cost(self, tokens: TokenCounts) -> float | None:
        """What ``tokens`` cost at these rates; None when input or output is unknown.

        A cache kind the CLI does not report is not charged: the CLIs that leave
        it out (Codex, Gemini) are those whose provider charges no cache writes.
        """
        if tokens.uncached_input is None or tokens.output is None:
            return None
        dollars = (
            tokens.uncached_input * self.uncached_input
            + (tokens.cache_read or 0) * self.cache_read
            + (tokens.cache_write or 0) * self.cache_write
            + tokens.output * self.output
        )
        return dollars / _PER


# A NamedTuple, not a frozen dataclass: building one cost ~4 M instructions at import.
class Estimate(NamedTuple):
    """What a run's tokens cost at list prices.

    ``cost_usd`` is the sum over every model, None when one of them could not
    be priced (``unpriced`` names those: the table does not know them, or their
    input or output tokens are unknown) and used any tokens. ``by_model`` holds
    each priced model's cost. ``price_data`` names the table (``genai-prices
    0.2.3``), None when it is not installed.
    """

    cost_usd: float | None
    by_model: Mapping[str, float]
    unpriced: tuple[str, ...]
    price_data: str | None


@functools.cache
def price_data() -> str | None:
    """The price table's name and version (``genai-prices 0.2.3``), None when not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"{PRICE_DISTRIBUTION} {version(PRICE_DISTRIBUTION)}"
    except PackageNotFoundError:
        return None


_RATES_FILE: Final = "prices.json"


class _RatesCache:
    """Rates looked up before, by (model, day), for one version of the price table."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.rates: dict[str, list[Any] | None] = {}
        self.path: Path | None = None
        from linewise.settings.cache_folder import cache_folder

        try:
            folder = cache_folder()
        except RuntimeError:
            folder = None
        if folder is None:
            return
        self.path = folder / _RATES_FILE
        try:
            import json

            data = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and data.get("table") == table:
                rates = data.get("rates")
                self.rates = rates if isinstance(rates, dict) else {}
        except (OSError, ValueError):
            pass  # none yet, or damaged: looked up again

    def get(self, key: str) -> tuple[bool, Rates | None]:
        """(found, rates); a cached None is a model the table does not know."""
        if key not in self.rates:
            return False, None
        value = self.rates[key]
        if value is None:
            return True, None
        try:
            model, provider, *prices = value
            return True, Rates(str(model), str(provider), *(float(price) for price in prices))
        except (TypeError, ValueError):
            return False, None

    def put(self, key: str, rates: Rates | None) -> None:
        self.rates[key] = (
            None
            if rates is None
            else [
                rates.model,
                rates.provider,
                rates.uncached_input,
                rates.cache_read,
                rates.cache_write,
                rates.output,
            ]
        )
        if self.path is None:
            return
        import json
        import os
        import tempfile

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            handle, name = tempfile.mkstemp(dir=self.path.parent, prefix=".prices-")
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                json.dump({"table": self.table, "rates": self.rates}, stream)
            os.replace(name, self.path)
        except OSError as error:
            logger.info("price cache not written (%s)", error)


@functools.cache
def _rates_cache(table: str) -> _RatesCache:
    return _RatesCache(table)


def _snapshot() -> Any:
    from genai_prices import data_snapshot

    return data_snapshot.get_snapshot()


def _base(price: Any) -> float | None:
    """A rate as a float: the base rate of a tiered one (see the module's note on tiers)."""
    if price is None:
        return None
    return float(getattr(price, "base", price))


@functools.lru_cache(maxsize=512)
def rates_for(model: str, day: str | None = None) -> Rates | None:
    """``model``'s list prices on ``day`` (``2025-10-01``; None: today), or None when unknown.

    The table keeps each model's price history, so a run is priced as it was
    on its own day. None too when genai-prices is not installed.
    """
    table = price_data()
    if table is None or not model.strip() or model == NO_MODEL:
        return None
    day = day or datetime.now(UTC).date().isoformat()
    cache = _rates_cache(table)
    key = f"{model.strip()}|{day}"
    found, rates = cache.get(key)
    if not found:
        rates = _table_rates(model, day)
        cache.put(key, rates)
    return rates


def _table_rates(model: str, day: str) -> Rates | None:
    """``model``'s rates on ``day`` as genai-prices gives them (importing it)."""
    try:
        snapshot = _snapshot()
        provider, info = snapshot.find_provider_model(model.strip(), None, None, None)
    except LookupError:
        return None
    try:
        when = datetime.fromisoformat(day).replace(tzinfo=UTC)
    except ValueError:
        when = datetime.now(UTC)
    prices = info.get_prices(when)
    uncached = _base(prices.input_mtok)
    output = _base(prices.output_mtok)
    if uncached is None or output is None:
        return None  # priced by something other than tokens (images, audio, requests)
    cache_read = _base(prices.cache_read_mtok)
    cache_write = _base(prices.cache_write_mtok)
    return Rates(
        model=str(info.id),
        provider=str(provider.id),
        uncached_input=uncached,
        cache_read=uncached if cache_read is None else cache_read,
        cache_write=uncached if cache_write is None else cache_write,
        output=output,
    )


def _used(tokens: TokenCounts) -> bool:
    counts = (tokens.uncached_input, tokens.cache_read, tokens.cache_write, tokens.output)
    return any(count for count in counts if count is not None) or all(
        count is None for count in counts
    )


def estimate_cost(model_usage: Mapping[str, TokenCounts], when: str | None = None) -> Estimate:
    """What the tokens of each model in ``model_usage`` cost at list prices on ``when``.

    ``when`` is the run's ISO 8601 time (its prices are that day's); None is
    today. A model that used no tokens costs nothing, known to the table or not.
    """
    day = when[:10] if when else None
    by_model: dict[str, float] = {}
    unpriced: list[str] = []
    for model, tokens in model_usage.items():
        rates = rates_for(model, day)
        cost = rates.cost(tokens) if rates is not None else None
        if cost is not None:
            by_model[model] = cost
        elif _used(tokens):
            unpriced.append(model)
    total = None if unpriced or not model_usage else sum(by_model.values())
    return Estimate(
        cost_usd=total, by_model=by_model, unpriced=tuple(unpriced), price_data=price_data()
    )


def priced(summary: RunSummary, when: str | None = None) -> tuple[RunSummary, Estimate | None]:
    """``summary`` with its cost estimated when the CLI reported none, and the estimate.

    A reported cost is kept as it is. Otherwise the tokens of each model (``model_usage``; else
    ``token_usage`` at the run's one model) are priced at ``when``'s list
    prices: the summary then carries the estimate with ``cost_source``
    ``estimated``, or stays unknown when a model could not be priced (the
    estimate names it, and a warning says so once per process).
    """
    from dataclasses import replace

    if summary.cost_usd is not None:
        return summary, None
    model_usage: Mapping[str, TokenCounts] = summary.model_usage
    if not model_usage and summary.token_usage.known:
        model_usage = {summary.model or NO_MODEL: summary.token_usage}
    if not model_usage:
        return summary, None
    estimate = estimate_cost(model_usage, when)
    if estimate.unpriced:
        warn_unpriced(estimate.unpriced)
    if estimate.cost_usd is None:
        return summary, estimate
    return replace(summary, cost_usd=estimate.cost_usd, cost_source="estimated"), estimate


def cost_source(summary: RunSummary) -> str | None:
    """Where the summary's cost came from: ``reported`` (a plugin of contract 1.2 does not
    say, but a cost linewise did not estimate is the CLI's), ``estimated``, or None."""
    if summary.cost_usd is None:
        return None
    return summary.cost_source or "reported"


_warned: set[str] = set()


def warn_unpriced(models: Iterable[str]) -> None:
    """Warn once per process about models whose cost could not be estimated."""
    fresh = sorted(set(models) - _warned)
    if not fresh:
        return
    _warned.update(fresh)
    if NO_MODEL in fresh:
        fresh.remove(NO_MODEL)
        logger.warning("cost unknown where the CLI did not name the model: no list price applies")
        if not fresh:
            return
    table = price_data()
    if table is None:
        logger.warning(
            "cost unknown for %s: no price table to estimate it "
            "(install linewise[prices] for estimates from genai-prices)",
            ", ".join(fresh),
        )
    else:
        logger.warning("cost unknown for %s: not in the price table (%s)", ", ".join(fresh), table)
