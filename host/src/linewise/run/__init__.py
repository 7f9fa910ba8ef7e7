"""Live runs: an agent's child process, its signals, its output relayed, and worker pools."""
