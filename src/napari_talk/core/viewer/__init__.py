"""What packs may ask of a napari viewer, its layers and its window, without importing napari or Qt."""
