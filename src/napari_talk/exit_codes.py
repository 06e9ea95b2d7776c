"""The exit statuses of the ``napari-talk`` command line, shared by its commands and by the
runner of typed lines."""

EXIT_OK = 0
EXIT_FAILED = 1
"""A line was not understood, or its command failed (the reason is printed)."""
EXIT_USAGE = 2
"""The arguments are wrong, or a file named in them cannot be read."""
EXIT_UNAVAILABLE = 3
"""What was asked needs something missing here: a display, a free port, a sample of that name."""
EXIT_ERROR = 4
"""Something went wrong inside napari-talk (NAPARI_TALK_DEBUG=1 shows where)."""
EXIT_NOT_APPROVED = 5
"""A command needed the person's approval (it replaces something of theirs, or sends to a host
they did not configure) and did not get it: nothing of it ran. ``--yes`` approves."""
EXIT_INTERRUPTED = 130

EXIT_CODES = f"""exit status:
  {EXIT_OK}    done
  {EXIT_FAILED}    a line was not understood, or its command failed
  {EXIT_USAGE}    wrong arguments, or a file named in them cannot be read
  {EXIT_UNAVAILABLE}    needs something missing here (a display, a free port, a sample of that name)
  {EXIT_ERROR}    an error inside napari-talk (set NAPARI_TALK_DEBUG=1 to see where)
  {EXIT_NOT_APPROVED}    run: a command needed your approval and did not get it (nothing of it ran)
  {EXIT_INTERRUPTED}  interrupted (Ctrl-C)
Every failure is said in a sentence on stderr."""
