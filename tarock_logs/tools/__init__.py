"""Tools around the library: the seeded simulator, its players, importers from other formats."""
