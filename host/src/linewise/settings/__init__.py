"""Settings: every default and exit code, where linewise keeps files, the environment, the clock
and the one neutraliser of text bound for a terminal or a page."""
