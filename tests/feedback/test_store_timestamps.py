"""The stored timestamps: `iso_ts` writes what `strftime` wrote, for every moment and time zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from pinup_feedback.store.base import iso_ts, now_utc, ts_to_iso

zones = st.builds(lambda minutes: timezone(timedelta(minutes=minutes)), st.integers(-23 * 60 - 59, 23 * 60 + 59))
moments = st.datetimes(min_value=datetime(1000, 1, 2), max_value=datetime(9999, 12, 30), timezones=zones)


@given(moments)
def test_iso_ts_is_the_strftime_text(when: datetime) -> None:
    assert iso_ts(when) == when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def test_whole_seconds_keep_their_microseconds_and_file_names_round_trip() -> None:
    assert iso_ts(datetime(2026, 11, 30, 0, 15, tzinfo=UTC)) == "2026-11-30T00:15:00.000000Z"
    assert ts_to_iso("20261130T001500.123456Z") == "2026-11-30T00:15:00.123456Z"
    assert iso_ts(now_utc()).endswith("Z") and len(iso_ts(now_utc())) == 27
