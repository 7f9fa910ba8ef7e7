"""Live runs: an agent's child process as a state table, its driver, and the files written."""
