"""The public API: every exported name resolves, and importing linewise stays light."""

from __future__ import annotations

import json
import subprocess
import sys

import linewise
import linewise_contracts


def test_every_public_name_resolves() -> None:
    for module in (linewise, linewise_contracts):
        for name in module.__all__:
            assert getattr(module, name) is not None, f"{module.__name__}.{name}"
        assert set(module.__all__) <= set(dir(module))


def test_importing_linewise_imports_no_heavy_dependency() -> None:
    code = (
        "import json, sys, linewise; linewise.get_registry; "
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(done.stdout))
    # pluggy, packaging, orjson and hypothesis are imported only when needed.
    assert not loaded & {"pluggy", "packaging", "orjson", "hypothesis", "linewise_claude"}
