"""Files: atomic writes, fight files (JSON Lines, YAML), hand histories (PHH)."""
