"""Turning logs into verdicts: the log-engine codec, the replay, the audit, tournament standings."""
