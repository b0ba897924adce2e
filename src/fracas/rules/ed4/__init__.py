"""Earthdawn 4th Edition combat (ED4 Player's Guide combat chapter, ``000_4b24aca42c3b6366.txt``)."""
