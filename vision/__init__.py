"""Frame sources and image -> Observation; the synthetic board renderer (`vision.synthetic`,
which the live reader never imports)."""
