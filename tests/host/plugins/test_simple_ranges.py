"""Simple contract ranges are decided without packaging, exactly as the contract's gate decides."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from linewise.plugins.gate import check_contract
from linewise.plugins.ranges import decide_simple
from linewise_contracts.versioning import check_contract as packaging_check

_NUMBER = st.sampled_from(["0", "1", "2", "3", "10", "01"])
_RELEASE = st.lists(_NUMBER, min_size=1, max_size=3).map(".".join)
# Mostly the simple grammar, sometimes forms only packaging reads (wildcards, ~=, rc...).
_SUFFIX = st.sampled_from(["", "", "", "", "", "", ".*", "rc1", "x"])
_VERSION = st.builds(lambda release, suffix: release + suffix, _RELEASE, _SUFFIX)
_OPERATOR = st.sampled_from([">=", "<", "<=", ">", "==", "!=", ">=", "<", "~=", "==="])
_SPACE = st.sampled_from(["", "", " "])
_SPECIFIER = st.builds(lambda op, sp, v: f"{op}{sp}{v}", _OPERATOR, _SPACE, _VERSION)
_RANGE = st.lists(_SPECIFIER, max_size=3).map(",".join)
_NAME = st.sampled_from(
    ["linewise-contracts"] * 4
    + ["linewise_contracts", "Linewise.Contracts", "linewise-contracts-x"]
)
_EXTRAS = st.sampled_from(["", "", "", "[testing]", "[ testing , x ]", "[]", "[bad"])
_MARKER = st.sampled_from(
    [
        "",
        "",
        "",
        '; extra == "test"',
        "; extra == 'dev'",
        '; python_version >= "3"',
        '; extra == ""',
    ]
)


@st.composite
def requirement(draw: st.DrawFn) -> str:
    body = draw(_RANGE)
    if draw(st.booleans()) and body:
        body = f" ({body})"
    return draw(_NAME) + draw(_EXTRAS) + draw(_SPACE) + body + draw(_MARKER)


_OTHER = st.sampled_from(["pluggy>=1.5", "other (>=2)"])
_REQUIRES = st.lists(requirement(), min_size=1, max_size=3) | st.lists(
    requirement() | _OTHER, max_size=3
)
_HOST = _RELEASE | st.sampled_from(["1.2.0", "2.0.0", "1.1.0rc1", "1.0.post1"])


@settings(max_examples=800, deadline=None)
@given(_REQUIRES, _HOST)
@example(["linewise-contracts>=1.1,<2"], "1.2.0")
@example(["linewise-contracts<2,<2.0"], "1.2.0")
@example(["linewise-contracts==1.2", "linewise-contracts!=1.2.0"], "1.2.0")
def test_a_simple_decision_is_the_packaging_decision(requires: list[str], host: str) -> None:
    simple = decide_simple(requires, host)
    if simple is not None:
        assert simple == packaging_check(requires, host)
    assert check_contract(requires, host) == packaging_check(requires, host)


@pytest.mark.parametrize(
    "requires",
    [
        ["linewise-contracts>=1.1,<2"],
        ["linewise-contracts (<2,>=1.1)"],
        ["linewise-contracts[testing]>=1.1,<2; extra == 'test'", "linewise-contracts>=1.0"],
        ["linewise-contracts >= 1.3 , < 2"],
        ["linewise-contracts==1.2", "linewise-contracts!=1.1"],
        ["linewise-contracts"],
        ["pluggy>=1.5"],
        [],
    ],
)
def test_the_ranges_plugins_declare_are_simple(requires: list[str]) -> None:
    assert decide_simple(requires, "1.2.0") is not None


@pytest.mark.parametrize(
    ("requires", "host"),
    [
        (["linewise-contracts~=1.1"], "1.2.0"),
        (["linewise-contracts>=1.1.*"], "1.2.0"),
        (["linewise-contracts>=1.1; python_version >= '3'"], "1.2.0"),
        (["linewise-contracts @ https://example.invalid/x.whl"], "1.2.0"),
        (["linewise-contracts>=1.1"], "1.3.0rc1"),
    ],
)
def test_anything_else_is_left_to_packaging(requires: list[str], host: str) -> None:
    assert decide_simple(requires, host) is None
    assert check_contract(requires, host) == packaging_check(requires, host)


def test_gating_the_first_party_plugins_does_not_import_packaging() -> None:
    code = (
        "import sys\nfrom linewise import get_registry\n"
        "infos = get_registry().parsers()\n"
        "assert any(i.contract_verdict == 'compatible' for i in infos), infos\n"
        "print('packaging' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
