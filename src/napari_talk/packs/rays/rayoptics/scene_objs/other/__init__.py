"""Other optical objects: the detector and the custom surfaces."""
