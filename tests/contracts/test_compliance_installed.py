"""check on a machine where some installed distribution has unreadable metadata: skipped, reported."""

from __future__ import annotations

import pytest
from linewise_contracts.compliance import TargetError, run_checks
from support import FakeSite

PARSE = '''
"""A parser installed next to broken distributions."""


def parse_stdout_line(line, ts):
    return [{"kind": "stdout", "ts": ts, "text": line}]
'''


def _broken(site: FakeSite) -> None:
    site.add("good-plugin", entry_points={"good": "good_mod"}, modules={"good_mod": PARSE})
    broken = site.add("no-equals", entry_points={})
    (broken / "entry_points.txt").write_bytes(b"[linewise.parsers]\njust_a_name\n")
    broken = site.add("bad-utf8", entry_points={})
    (broken / "entry_points.txt").write_bytes(b"[linewise.parsers]\nbad = \xff\xfe\n")
    broken = site.add("bad-metadata", entry_points={"badmeta": "good_mod"})
    (broken / "METADATA").write_bytes(b"Metadata-Version: 2.1\nName: bad\xffmeta\nVersion: 1\n")


def test_an_adapter_type_is_found_and_the_unreadable_distributions_are_named(
    fake_site: FakeSite,
) -> None:
    _broken(fake_site)
    report = run_checks("good", examples=0)
    by_check = {result.check: result for result in report.results}
    assert report.distribution == "good-plugin"
    assert report.adapter_types == ("good",)
    duplicates = by_check["metadata.duplicates"]
    assert duplicates.status == "warn"
    assert (
        "3 installed distribution(s) with unreadable metadata were not read" in duplicates.message
    )
    details = "\n".join(duplicates.details)
    assert "no_equals-1.0.0.dist-info: unreadable entry_points.txt (TypeError" in details
    assert "bad_utf8-1.0.0.dist-info: unreadable entry_points.txt (UnicodeDecodeError" in details
    assert "bad_metadata-1.0.0.dist-info: unreadable METADATA (UnicodeDecodeError" in details
    # The dependency check reads every distribution too, and still gives a verdict.
    assert by_check["size.dependencies"].status in ("pass", "fail")


def test_a_distribution_whose_own_metadata_is_unreadable_is_a_clear_error(
    fake_site: FakeSite,
) -> None:
    _broken(fake_site)
    with pytest.raises(TargetError, match="installed metadata cannot be read"):
        run_checks("no-equals", examples=0)


def test_without_broken_distributions_the_duplicates_check_passes(fake_site: FakeSite) -> None:
    fake_site.add("good-plugin", entry_points={"good": "good_mod"}, modules={"good_mod": PARSE})
    report = run_checks("good", examples=0)
    statuses = {result.check: result.status for result in report.results}
    assert statuses["metadata.duplicates"] == "pass"
