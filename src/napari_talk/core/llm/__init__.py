"""The LLM road: what the parser does not understand goes to a model on an OpenAI-compatible
server; what comes back is untrusted input, validated like typed text. Qt-free; the openai SDK is
imported only when a request is made."""
