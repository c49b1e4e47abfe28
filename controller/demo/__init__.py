"""The bundled demo's film (`bgboard demo`, the recording tests and benchmarks): whole games
played by the engine and filmed with the synthetic renderer. Never imported by the live loop."""
