"""Frame sources and image -> Observation; the synthetic board renderer."""
