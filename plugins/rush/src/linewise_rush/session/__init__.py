"""Rush's session files (``~/.rush/sessions/<id>/messages.jsonl``): the ``rush_session`` code.

The parser is :mod:`.parser`, its sniff :mod:`.sniff`, the store and records
:mod:`.store`, the summary :mod:`.summary`. The package's top level (``linewise_rush``) declares
the agent and exports these names, as it did before they moved here.
"""
