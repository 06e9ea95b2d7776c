"""Turning typed text into commands without a model: tokens, rules, and the parser."""
