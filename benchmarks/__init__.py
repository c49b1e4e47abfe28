"""The benchmark, labelling and training scripts, each run as a script (docs/development.md)."""
