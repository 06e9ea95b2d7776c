"""Talking to an OpenAI-compatible server: the Chat Completions client (``client.py``), its
settings (``settings.py``), the reply's body read defensively (``reply_body.py``), the reply's
requested shape (``reply_format.py``) and what went wrong, said in one line (``errors.py``).
Below the LLM road (``llm/``), so the pack contract can name the client a handler is given.
"""
