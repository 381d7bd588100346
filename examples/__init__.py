"""The example files, installed as the package data of ``engine.examples`` (`poker example`)."""
