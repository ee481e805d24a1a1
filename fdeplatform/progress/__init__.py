"""Players' progress: the case table's solve rates and the viewer's marks, player profiles and
the public activity feed. Reads only; no models of its own."""
