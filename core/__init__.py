"""agentdeck's headless core. Never imports textual."""

__version__ = "0.1.0"
