"""Transcripts: the folds over a run's entries (whole transcripts, run reports, prices)."""
