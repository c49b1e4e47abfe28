"""The application: session and turn state machine, reconciler, recorder, tutor, CLI."""
