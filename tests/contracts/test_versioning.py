"""The contract version rules (the host gate): load, grace period, refuse, malformed."""

from __future__ import annotations

import pytest
from linewise_contracts.versioning import check_contract


@pytest.mark.parametrize(
    ("requires", "host", "verdict", "declared"),
    [
        # Inside the declared range: load.
        (["linewise-contracts>=1.0,<2"], "1.0.0", "compatible", ">=1.0,<2"),
        (["linewise-contracts>=1.0,<2"], "1.7.3", "compatible", ">=1.0,<2"),
        (["linewise-contracts~=1.0"], "1.4.0", "compatible", "~=1.0"),
        (["linewise-contracts==1.*"], "1.2.0", "compatible", "==1.*"),
        (["linewise-contracts (>=1.0,<2)"], "1.0.0", "compatible", ">=1.0,<2"),
        (["linewise-contracts<2,>=1.0"], "1.0.0", "compatible", ">=1.0,<2"),
        # Names are compared normalised, as pip does.
        (["Linewise_Contracts>=1"], "1.0.0", "compatible", ">=1"),
        (["linewise.contracts>=1"], "1.0.0", "compatible", ">=1"),
        # Declared without a range: any contract.
        (["linewise-contracts"], "1.0.0", "compatible", "any version"),
        # The range excludes the host's major: refuse.
        (["linewise-contracts>=2,<3"], "1.0.0", "incompatible", ">=2,<3"),
        (["linewise-contracts<1"], "1.0.0", "incompatible", "<1"),
        (["linewise-contracts>=1.0,<2"], "2.0.0", "incompatible", ">=1.0,<2"),
        # Same major but the plugin needs a newer minor than the host has: refuse.
        (["linewise-contracts>=1.3,<2"], "1.0.0", "incompatible", ">=1.3,<2"),
        # Pre-release hosts are matched like releases inside a range ...
        (["linewise-contracts>=1.0,<2"], "1.1.0rc1", "compatible", ">=1.0,<2"),
        (["linewise-contracts>=1.0,<2"], "1.0.0.dev3", "incompatible", ">=1.0,<2"),
        # ... but `<2` does not admit 2.0 pre-releases (PEP 440).
        (["linewise-contracts>=1.0,<2"], "2.0.0rc1", "incompatible", ">=1.0,<2"),
        (["linewise-contracts>=2.0.0rc1"], "2.0.0rc2", "compatible", ">=2.0.0rc1"),
        (["linewise-contracts>=2.0.0rc1"], "1.9.0", "incompatible", ">=2.0.0rc1"),
        # Several applicable requirements are intersected.
        (
            ["linewise-contracts>=1.0", "linewise-contracts<1.5"],
            "1.7.0",
            "incompatible",
            ">=1.0 ; <1.5",
        ),
        # Nothing declared: load during the grace period.
        (None, "1.0.0", "undeclared", None),
        ([], "1.0.0", "undeclared", None),
        (["requests>=2", "linewise-contracts-extra>=9"], "1.0.0", "undeclared", None),
        # A requirement that applies only with an extra is not a runtime declaration.
        (['linewise-contracts>=9; extra == "dev"'], "1.0.0", "undeclared", None),
        # A requirement for another platform does not apply either.
        (['linewise-contracts>=9; sys_platform == "nonexistent"'], "1.0.0", "undeclared", None),
        # A marker that applies is honoured.
        (['linewise-contracts>=2; python_version >= "3"'], "1.0.0", "incompatible", ">=2"),
        # Malformed: refuse rather than guess.
        (["linewise-contracts>=>1"], "1.0.0", "malformed", "linewise-contracts>=>1"),
        (["linewise-contracts>=1.0,<2 ; extra =="], "1.0.0", "malformed", None),
        (["linewise-contracts>=one"], "1.0.0", "malformed", None),
    ],
)
def test_decision_table(
    requires: list[str] | None, host: str, verdict: str, declared: str | None
) -> None:
    decision = check_contract(requires, host)
    assert decision.verdict == verdict, decision.reason
    if declared is not None:
        assert decision.declared == declared
    assert decision.loads is (verdict in ("compatible", "undeclared"))


def test_refusal_reason_names_the_range_and_the_host_contract() -> None:
    decision = check_contract(["linewise-contracts>=2,<3"], "1.0.0")
    assert "<3,>=2" in decision.reason
    assert "1.0.0" in decision.reason


def test_malformed_reason_quotes_the_parse_error() -> None:
    decision = check_contract(["linewise-contracts>=>1"], "1.0.0")
    assert decision.reason.startswith("cannot read the contract requirement")
