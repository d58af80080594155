"""Shared by every test module: this folder on ``sys.path`` (pytest puts a root conftest's folder
there), so the test helpers (``known_cases``) import by name."""
