"""The same typed commands for agents: Python tool functions, schema exports, an MCP server."""

from .exports import anthropic_tools, from_tool_arguments, json_schemas, openai_tools
from .functions import get_agentic_tools

__all__ = ["anthropic_tools", "from_tool_arguments", "get_agentic_tools", "json_schemas", "openai_tools"]
