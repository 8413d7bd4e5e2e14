"""One router module per resource: ``drop_token`` and ``winner``."""
