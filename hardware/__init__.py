"""LED layout, hint rendering, servo cube, buttons; backends gpio, serial, sim."""
