"""What a person is told: help topics, the not-understood line, and completion of what is typed."""
