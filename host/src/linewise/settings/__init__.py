"""Settings: every default and exit code, where linewise keeps files, the environment."""
