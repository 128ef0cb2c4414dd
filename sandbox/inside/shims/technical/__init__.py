"""technical: only its qtpylib module (technical.indicators is not provided)."""
