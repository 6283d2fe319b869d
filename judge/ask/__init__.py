"""Questions in judges' French."""
