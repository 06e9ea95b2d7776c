"""Running a line: the session, its one undo history, slow work as jobs, and the settings."""
