"""Redaction: secrets masked in agent text, in entries and in everything linewise writes."""
