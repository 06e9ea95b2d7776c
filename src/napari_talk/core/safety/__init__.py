"""What stands between a command and the person's things: consent judged at the act, the network
fences, secret redaction and the workspace gate.
"""
