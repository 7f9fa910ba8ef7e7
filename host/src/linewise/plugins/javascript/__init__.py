"""JavaScript ui-parser packages run in an embedded engine (``linewise js``, ``linewise[js]``).

Nothing here is imported unless a JavaScript parser is registered or a
``linewise js`` command runs, so Python-only use stays as fast as before.
"""
