"""The stream: bytes in, lines, detection, the safety net, entries out (the compiled hot path)."""
