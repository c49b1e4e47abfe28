"""Host <-> microcontroller protocol, firmware source and its simulator harness."""
